// The `network` injector: runs execute in a network namespace shared by every run of the
// same preset, with delay, jitter, loss, duplication and a bandwidth cap, or cut off from
// everything but loopback (network_partition). Active when the preset lists network or
// network_partition in FAILURE_MODES or sets any network key. A spec with `safe_mode` gets
// a namespace whatever the preset, never with an uplink: loopback and, through
// fault_proxy, the run's upstreams are all it reaches.
//
// Lifecycle: a namespace is made by the first prepare() of a preset and shared through a
// process-wide pool; each instance keeps the `keep_namespaces` it used last, each run holds
// its own until its teardown(), and the last one to let go destroys it (so all are gone
// when the host destroys its instances). A SIGKILLed host leaves record files for sweep().
#include <sbx/plugin.hpp>

#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "namespace_pool.hpp"
#include "network_namespace.hpp"
#include "network_plan.hpp"
#include "stale_records.hpp"
#include "support/probe_request.hpp"
#include "uplink.hpp"

namespace sbx::network {
namespace {

using nlohmann::json;

// What the run's namespace does to its packets, for the host's fault accounting: "latency
// 500 ms (netem)", "partition"; none for a preset whose keys are all 0.
json applied_faults(const NetworkPlan &plan, const std::string &mechanism) {
    const auto number = [](double value) {
        std::string text = std::to_string(value);
        text.erase(text.find_last_not_of('0') + 1);
        if (!text.empty() && text.back() == '.') {
            text.pop_back();
        }
        return text;
    };
    json applied = json::array();
    if (plan.partition) {
        applied.push_back("partition (loopback only)");
    }
    if (plan.latency_ms > 0) {
        applied.push_back("latency " + number(plan.latency_ms) + " ms (" + mechanism + ")");
    }
    if (plan.jitter_ms > 0) {
        applied.push_back("jitter " + number(plan.jitter_ms) + " ms (" + mechanism + ")");
    }
    if (plan.loss > 0) {
        applied.push_back("loss " + number(plan.loss) + " (" + mechanism + ")");
    }
    if (plan.duplication > 0) {
        applied.push_back("duplication " + number(plan.duplication) + " (" + mechanism + ")");
    }
    if (plan.rate_bits_per_s > 0) {
        applied.push_back("bandwidth " + number(plan.rate_bits_per_s) + " bit/s");
    }
    return applied;
}

class NetworkInjector final : public Injector {
  public:
    static constexpr About about{
        "network",
        "Network faults",
        "1.0.0",
        "Runs each step in a network namespace shared by the runs of its preset, with "
        "latency, jitter, packet loss and duplication (netem, or an NFQUEUE helper where the "
        "kernel has no netem), a bandwidth cap (tbf), or no route out (network_partition).",
        R"json({"type":"object","additionalProperties":false,"properties":{
          "namespace":{"enum":["auto","named","user"],"default":"auto",
            "description":"named: ip netns add, with an uplink to the host (needs root); user: owned by a user namespace of the plugin's own, which a normal user can make, with no uplink (upstreams go through fault_proxy); auto: named for root, user otherwise"},
          "impairment":{"enum":["auto","netem","nfqueue"],"default":"auto",
            "description":"how delay, jitter, loss and duplication are applied: auto uses netem where the kernel has it and the NFQUEUE helper elsewhere; nfqueue always uses the helper, whose schedule is seeded"},
          "seed":{"type":"integer","minimum":0,"default":0,
            "description":"seed of the NFQUEUE helper: the n-th packet of a namespace meets the same fate (dropped, duplicated, jitter) for the same seed"},
          "uplink":{"type":"boolean","default":true,
            "description":"give namespaces of the network mode a veth link to the host and a default route through it; network_partition namespaces never have one"},
          "uplink_pool":{"type":"string","default":"10.213.0.0/16",
            "description":"IPv4 block the /30 subnet of each uplink is taken from"},
          "keep_namespaces":{"type":"integer","minimum":0,"maximum":1024,"default":8,
            "description":"idle namespaces an instance keeps for later runs of the same preset, least recently used dropped first; 0 makes one namespace per run"}}})json",
        "sandbox-runner",
        "https://example.invalid/sandbox-runner",
        "Apache-2.0"};

    explicit NetworkInjector(const std::string &config_json) {
        const json config = json::parse(config_json);
        options_.kind = config.value("namespace", "auto");
        options_.impairment = config.value("impairment", "auto");
        options_.seed = config.value("seed", std::uint64_t{0});
        options_.uplink = config.value("uplink", true);
        options_.uplink_pool = config.value("uplink_pool", "10.213.0.0/16");
        keep_namespaces_ = config.value("keep_namespaces", std::size_t{8});
        check_uplink_pool(options_.uplink_pool);
        config_key_ = json{{"namespace", options_.kind},
                           {"impairment", options_.impairment},
                           {"seed", options_.seed},
                           {"uplink", options_.uplink},
                           {"uplink_pool", options_.uplink_pool}}
                          .dump();
    }

    std::string prepare(const std::string &request_json) override {
        const json request = json::parse(request_json);
        const json preset = request.value("preset", json::object());
        NetworkPlan plan = plan_from_preset(preset);
        const json &request_spec = request.contains("spec") ? request["spec"] : json();
        plan.offline = request_spec.is_object() && request_spec.value("safe_mode", false);
        if (!plan.active && !plan.offline) {
            // No "spec": left as it was. Idle: the preset decided, for every run under it
            // without safe_mode (the host asks again for a safe_mode run).
            return R"({"active":false,"state":null,"idle":true})";
        }
        if (support::is_probe(request) && !plan.active) {
            // The host's safe_mode check: the namespace can be made here. Active: it will
            // be, for every such run.
            check_can_make_namespaces(options_);
            return R"({"active":true,"state":null,"probe":true,"safe_mode":true})";
        }
        if (support::is_probe(request)) {
            check_can_make_namespaces(options_);
            return support::probe_answer(
                true, support::claimed(preset,
                                       {"NETWORK_LATENCY_MS", "NETWORK_JITTER_MS", "PACKET_LOSS",
                                        "PACKET_DUPLICATION", "BANDWIDTH_LIMIT", "MIN_BANDWIDTH",
                                        "MAX_BANDWIDTH"},
                                       {"network", "network_partition"}));
        }
        json spec = request.value("spec", json::object());
        if (const auto netns = spec.find("netns");
            netns != spec.end() && netns->is_string() && !netns->get<std::string>().empty()) {
            throw Error(SBX_INVALID, "the run spec already names network namespace " +
                                         netns->dump() +
                                         " (set by an earlier injector); configure only one "
                                         "network injector");
        }
        refuse_upstreams_set_outside(spec);
        NamespaceOptions options = options_;
        const std::string state_dir = request.value("state_dir", "");
        if (!state_dir.empty()) {
            options.record_folder = std::filesystem::path(state_dir) / "network";
        }
        const std::string key = config_key_ + "\n" + options.record_folder.string() + "\n" +
                                (plan.offline ? "safe_mode\n" : "") + preset.dump();
        bool reused = false;
        auto network = shared_namespace(
            key, [&] { return std::make_shared<NetworkNamespace>(plan, options); }, reused);
        if (!reused) {
            host::log(SBX_LOG_INFO, "network namespace " + network->name() +
                                        " ready: " + network->report().dump());
        }
        hold(key, network);

        spec["netns"] = network->path();
        json &env = spec["env"];
        env["SANDBOX_NETWORK_NAMESPACE"] = network->name();
        env["SANDBOX_NETWORK_IMPAIRMENT"] = network->report().value("impairment", "none");
        if (!network->host_address().empty()) {
            env["SANDBOX_NETWORK_HOST"] = network->host_address();
        }
        json report = network->report();
        report["reused"] = reused;
        const std::uint64_t token = runs_prepared_ + 1;
        // Under safe_mode alone the namespace is no fault: inactive, so the run's fault
        // accounting names none, but prepared (a state, torn down like any other).
        std::string response = json{
            {"active", plan.active},
            {"spec", spec},
            {"state", {{"namespace", network->name()}, {"token", token}}},
            {"applied", applied_faults(plan, report.value("impairment", std::string("none")))},
            {"not_applied",
             "the preset's network keys are all 0: the run got the namespace "
             "and no fault"},
            {"network", report}}.dump();
        // Last, once nothing can fail: only a successful prepare gets a teardown.
        runs_prepared_ = token;
        running_.emplace(token, std::move(network));
        return response;
    }

    void teardown(const std::string &state_json) override {
        const json state = json::parse(state_json);
        if (state.is_object()) {
            running_.erase(state.value("token", std::uint64_t{0}));
        }
        trim();
    }

    std::string sweep(const std::string &request_json) override {
        const json request = json::parse(request_json);
        const std::string state_dir = request.value("state_dir", "");
        const bool dry_run = request.value("dry_run", false);
        std::vector<std::string> removed;
        if (!state_dir.empty()) {
            removed = sweep_records(std::filesystem::path(state_dir) / "network", dry_run);
        }
        for (std::string &orphan : sweep_orphans(dry_run)) {
            removed.push_back(std::move(orphan));
        }
        return json{{"removed", removed}}.dump();
    }

  private:
    // An upstream injector (fault_proxy) that ran before this one bound the upstreams
    // outside the namespace this one is about to make: from inside it every upstream
    // would be unreachable, for a reason that is not the program's.
    static void refuse_upstreams_set_outside(const json &spec) {
        if (spec.contains("upstreams_bound")) {
            throw Error(SBX_INVALID,
                        "the run's upstreams were bound by an injector listed before network, "
                        "outside the run's network namespace; list network before fault_proxy "
                        "in injectors: (as the default list does)");
        }
    }

    // Most recently used first.
    void hold(const std::string &key, const std::shared_ptr<NetworkNamespace> &network) {
        for (auto entry = held_.begin(); entry != held_.end(); ++entry) {
            if (entry->first == key) {
                held_.erase(entry);
                break;
            }
        }
        held_.emplace_front(key, network);
        trim();
    }

    // Lets go of the least recently used beyond keep_namespaces; one still running lives
    // on through running_ until its teardown.
    void trim() {
        while (held_.size() > keep_namespaces_) {
            held_.pop_back();
        }
    }

    NamespaceOptions options_;
    std::size_t keep_namespaces_ = 8;
    std::string config_key_;
    std::list<std::pair<std::string, std::shared_ptr<NetworkNamespace>>> held_;
    std::map<std::uint64_t, std::shared_ptr<NetworkNamespace>> running_;
    std::uint64_t runs_prepared_ = 0;
};

}  // namespace
}  // namespace sbx::network

SBX_PLUGIN(sbx::network::NetworkInjector);
