// The `fault_proxy` injector: a TCP proxy in front of each upstream the workflow declares
// (the spec's `upstreams`), between the target and the real service, adding latency to each
// request, resetting or hanging a seeded share of connections, corrupting bytes on the way
// back, limiting each connection's bandwidth and slicing replies. Active when the preset
// lists flaky_upstream, upstream_timeout, api_latency or corrupt_payload in FAILURE_MODES
// or sets UPSTREAM_FAILURES, UPSTREAM_TIMEOUTS, API_LATENCY_MS, CORRUPT_PAYLOAD,
// UPSTREAM_BANDWIDTH or UPSTREAM_SLICE_BYTES; a no-op for workflows without upstreams. Without
// faults, an upstream with a fixed listen address, or any upstream of a run in a network
// namespace, still gets a proxy (an idle one); otherwise the target is told the real upstream.
// A run in a partitioned namespace gets no proxy: nothing leaves a partition.
//
// Lifecycle: prepare() leases a proxy per upstream from a process-wide table (runs of the
// same preset share one; another preset waits for the address) and teardown() gives the
// leases back; the last one stops the proxy, resetting the connections in flight. The
// proxies are threads of the host: a SIGKILLed host leaves only record files for sweep().
#include <sbx/plugin.hpp>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "fault_plan.hpp"
#include "proxy_pool.hpp"
#include "proxy_records.hpp"
#include "support/preset_activation.hpp"
#include "support/probe_request.hpp"
#include "support/run_seed.hpp"

namespace sbx::fault_proxy {
namespace {

using nlohmann::json;

struct UpstreamSpec {
    std::string name;
    std::string listen;
    std::string target;
};

// SANDBOX_UPSTREAM_<NAME>: the name upper-cased.
std::string variable_of(const std::string &name) {
    std::string upper = name;
    std::transform(upper.begin(), upper.end(), upper.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    return "SANDBOX_UPSTREAM_" + upper;
}

bool is_plain_name(const std::string &name) {
    return !name.empty() && std::isdigit(static_cast<unsigned char>(name.front())) == 0 &&
           std::all_of(name.begin(), name.end(),
                       [](unsigned char c) { return std::isalnum(c) != 0 || c == '_'; });
}

// Port 0: the kernel chooses a port for each proxy.
bool any_port(const std::string &listen) {
    return listen.size() > 2 && listen.compare(listen.size() - 2, 2, ":0") == 0;
}

// The spec's `upstreams` (absent: none), checked as the host's loader checks them.
std::vector<UpstreamSpec> upstreams_of(const json &spec) {
    std::vector<UpstreamSpec> upstreams;
    const auto found = spec.find("upstreams");
    if (found == spec.end() || found->is_null()) {
        return upstreams;
    }
    if (!found->is_array()) {
        throw Error(SBX_INVALID,
                    "the run spec's upstreams must be a list of {name, listen, "
                    "target}, not " +
                        found->dump());
    }
    std::set<std::string> variables;
    for (const auto &item : *found) {
        const auto text = [&](const char *key) {
            const auto value = item.is_object() ? item.find(key) : item.end();
            if (!item.is_object() || value == item.end() || !value->is_string() ||
                value->get<std::string>().empty()) {
                throw Error(SBX_INVALID, "upstream " + item.dump() + " has no " + key +
                                             "; each is {name, listen, target}");
            }
            return value->get<std::string>();
        };
        UpstreamSpec upstream{text("name"), text("listen"), text("target")};
        if (!is_plain_name(upstream.name)) {
            throw Error(SBX_INVALID, "upstream name '" + upstream.name +
                                         "' is not letters, digits and '_' (it names an "
                                         "environment variable)");
        }
        if (!variables.insert(variable_of(upstream.name)).second) {
            throw Error(SBX_INVALID,
                        "two upstreams are named '" + upstream.name + "' (case does not count)");
        }
        upstreams.push_back(std::move(upstream));
    }
    return upstreams;
}

// The fault the first connection of a run's proxies meets whatever the schedule draws, so
// a cell's first repetitions cannot miss the preset's faults: repetition 0 gets the first
// kind the plan asks for (reset, then hang, then corrupt), repetition 1 the second, and so
// on; later repetitions, and a request without a repetition, draw from the schedule alone.
ProxyServer::Fate potent_fate(const FaultPlan &plan, std::int64_t repetition) {
    std::vector<ProxyServer::Fate> kinds;
    if (plan.failures > 0) {
        kinds.push_back(ProxyServer::Fate::reset);
    }
    if (plan.timeouts > 0) {
        kinds.push_back(ProxyServer::Fate::hang);
    }
    if (plan.corrupt_rate > 0) {
        kinds.push_back(ProxyServer::Fate::corrupt);
    }
    if (repetition < 0 || static_cast<std::size_t>(repetition) >= kinds.size()) {
        return ProxyServer::Fate::none;
    }
    return kinds[static_cast<std::size_t>(repetition)];
}

const char *fate_name(ProxyServer::Fate fate) {
    switch (fate) {
        case ProxyServer::Fate::reset:
            return "reset";
        case ProxyServer::Fate::hang:
            return "hang";
        case ProxyServer::Fate::corrupt:
            return "corrupt";
        case ProxyServer::Fate::none:
            break;
    }
    return "none";
}

// The tally of a run's connections through its proxies (`listened`: their addresses): the
// faults its plan asked for that the connections met, or why none was met.
json tally_response(const FaultPlan &plan, std::uint64_t connections, std::uint64_t resets,
                    std::uint64_t timeouts, std::uint64_t corrupted, std::uint64_t replied,
                    const std::string &listened) {
    const std::string of = " of " + std::to_string(connections) + " connection(s)";
    json applied = json::array();
    if (resets > 0) {
        applied.push_back("reset " + std::to_string(resets) + of);
    }
    if (timeouts > 0) {
        applied.push_back("hung " + std::to_string(timeouts) + of);
    }
    if (corrupted > 0) {
        applied.push_back("corrupted " + std::to_string(corrupted) + " of " +
                          std::to_string(replied) + " reply bytes");
    }
    if (connections > 0) {
        if (plan.latency_ms > 0) {
            applied.push_back("API latency " + std::to_string(plan.latency_ms) + " ms on " +
                              std::to_string(connections) + " connection(s)");
        }
        if (plan.bandwidth_bits_per_s > 0) {
            applied.push_back("bandwidth limited on " + std::to_string(connections) +
                              " connection(s)");
        }
        if (plan.slice_bytes > 0) {
            applied.push_back("replies sliced on " + std::to_string(connections) +
                              " connection(s)");
        }
    }
    // Faults the plan asked for that none of the run's connections met, beside some it did:
    // a client making one request rarely meets a reset of 1 per 20 connections.
    json missed = json::array();
    const std::string schedule = " (" + std::to_string(plan.requests) + "-connection blocks, " +
                                 std::to_string(connections) + " made)";
    if (plan.failures > 0 && resets == 0) {
        missed.push_back("no connection reset of " + std::to_string(plan.failures) + schedule);
    }
    if (plan.timeouts > 0 && timeouts == 0) {
        missed.push_back("no connection hung of " + std::to_string(plan.timeouts) + schedule);
    }
    if (plan.corrupt_rate > 0 && corrupted == 0 && connections > 0) {
        missed.push_back("no reply byte corrupted of " + std::to_string(replied));
    }
    std::string why;
    if (applied.empty()) {
        why = connections == 0
                  ? "the target made no connection to its upstreams (" + listened + ")"
                  : std::to_string(connections) +
                        " connection(s), and the schedule faulted none of them (" +
                        std::to_string(plan.failures + plan.timeouts) + " per " +
                        std::to_string(plan.requests) + " connections" +
                        (plan.corrupt_rate > 0 ? "; no reply byte drawn for corruption" : "") + ")";
    }
    return {{"applied", applied}, {"not_applied", why}, {"missed", missed}};
}

class FaultProxyInjector final : public Injector {
  public:
    static constexpr About about{
        "fault_proxy",
        "Fault proxy",
        "1.0.0",
        "Puts a TCP proxy in front of each upstream a workflow declares (upstreams:) that "
        "adds API latency to each request, resets or hangs a seeded share of connections "
        "(flaky_upstream, upstream_timeout), corrupts bytes coming back (CORRUPT_PAYLOAD), "
        "limits each connection's bandwidth (UPSTREAM_BANDWIDTH) and slices replies "
        "(UPSTREAM_SLICE_BYTES).",
        R"json({"type":"object","additionalProperties":false,"properties":{
          "seed":{"type":"integer","minimum":0,"default":0,
            "description":"seed of the schedule: which connections are reset or hang and which bytes are altered, for the same preset and upstream"},
          "corrupt_rate":{"type":"number","minimum":0,"maximum":1,"default":0.001,
            "description":"fraction of the bytes coming back from an upstream that are altered when CORRUPT_PAYLOAD is a flag (1, true, yes) or corrupt_payload is a failure mode"},
          "wait_ms":{"type":"integer","minimum":0,"maximum":86400000,"default":600000,
            "description":"how long a run waits for a listen address held by the proxy of another preset's concurrent run before failing; port 0 never waits"}}})json",
        "sandbox-runner",
        "https://example.invalid/sandbox-runner",
        "Apache-2.0"};

    explicit FaultProxyInjector(const std::string &config_json) {
        const json config = json::parse(config_json);
        seed_ = config.value("seed", std::uint64_t{0});
        corrupt_rate_ = config.value("corrupt_rate", 0.001);
        wait_ms_ = config.value("wait_ms", std::int64_t{600000});
    }

    std::string prepare(const std::string &request_json) override {
        const json request = json::parse(request_json);
        json spec = request.value("spec", json::object());
        if (support::is_probe(request)) {
            // The preset's values are checked; upstreams are the runs' own.
            const json preset = request.value("preset", json::object());
            const FaultPlan plan = plan_from_preset(preset, corrupt_rate_);
            return support::probe_answer(
                plan.active,
                support::claimed(
                    preset,
                    {"API_LATENCY_MS", "UPSTREAM_FAILURES", "UPSTREAM_TIMEOUTS", "CORRUPT_PAYLOAD",
                     "UPSTREAM_BANDWIDTH", "UPSTREAM_SLICE_BYTES", "UPSTREAM_SLICE_DELAY_MS"},
                    {"api_latency", "flaky_upstream", "upstream_timeout", "corrupt_payload"}));
        }
        const auto upstreams = upstreams_of(spec);
        if (upstreams.empty()) {
            return R"({"active":false,"state":null})";  // no "spec": left as it was
        }
        const json preset = request.value("preset", json::object());
        const FaultPlan plan = plan_from_preset(preset, corrupt_rate_);
        json &env = spec["env"];
        const std::string netns = spec.value("netns", "");
        // Where the upstreams were bound: a network injector listed after this one would
        // move the target away from them (it refuses a spec with this field).
        spec["upstreams_bound"] = netns;
        // A partitioned namespace has no way out, and a proxy listening inside it would be
        // one: the target is told the real upstream, which it cannot reach from there.
        if (!netns.empty() && support::lists_failure_mode(preset, "network_partition")) {
            for (const auto &upstream : upstreams) {
                env[variable_of(upstream.name)] = upstream.target;
            }
            return json{{"active", false},
                        {"spec", spec},
                        {"state", nullptr},
                        {"fault_proxy", {{"partitioned", true}}}}
                .dump();
        }
        // No faults: the target talks to the upstream itself, found the same way, unless
        // the upstream has a fixed listen address, which the target may have been written
        // against, or the target runs in a network namespace, from where the upstream's
        // address (its loopback, say) may not be the upstream at all. An idle proxy (no
        // fault) keeps the upstream reachable in every scenario.
        const auto direct = [&](const UpstreamSpec &upstream) {
            return !plan.active && netns.empty() && any_port(upstream.listen);
        };
        bool idle_proxies = false;
        for (const auto &upstream : upstreams) {
            if (direct(upstream)) {
                env[variable_of(upstream.name)] = upstream.target;
            } else {
                idle_proxies = !plan.active;
            }
        }
        if (!plan.active && !idle_proxies) {
            return json{{"active", false}, {"spec", spec}, {"state", nullptr}}.dump();
        }

        const std::uint64_t seed = schedule_seed(request);
        const std::string state_dir = request.value("state_dir", "");
        const std::string preset_text = preset.dump();
        // Leases are taken in address order, so two runs that need the same two addresses
        // cannot each hold one and wait for the other.
        std::map<std::string, const UpstreamSpec *> by_address;
        for (const auto &upstream : upstreams) {
            if (direct(upstream)) {
                continue;  // told the real upstream above
            }
            std::string key = upstream.listen + (netns.empty() ? "" : " in " + netns);
            if (any_port(upstream.listen)) {
                key += " #" + std::to_string(++any_port_leases_);
            }
            if (!by_address.emplace(key, &upstream).second) {
                throw Error(SBX_INVALID, "two upstreams listen on " + upstream.listen +
                                             "; give each its own port, or port 0");
            }
        }
        std::vector<ProxyLease> leases;
        json report = json::array();
        for (const auto &[address_key, upstream] : by_address) {
            // Idle proxies of every fault-free preset are alike: they share an address.
            const std::string schedule_key =
                (plan.active ? std::to_string(seed) + "\n" + preset_text : std::string("idle")) +
                "\n" + upstream->name + "\n" + upstream->target;
            const auto make = [&, upstream = upstream] {
                ProxySettings settings;
                settings.name = upstream->name;
                settings.listen =
                    resolve(upstream->listen, "listen of upstream '" + upstream->name + "'");
                settings.netns = netns;
                settings.target =
                    resolve(upstream->target, "target of upstream '" + upstream->name + "'");
                settings.latency_ms = plan.latency_ms;
                settings.corrupt_rate = plan.corrupt_rate;
                settings.bandwidth_bits_per_s = plan.bandwidth_bits_per_s;
                settings.slice_bytes = plan.slice_bytes;
                settings.slice_delay_ms = plan.slice_delay_ms;
                settings.seed = seed;
                settings.schedule = shared_schedule(schedule_key, seed, upstream->name,
                                                    plan.failures, plan.timeouts, plan.requests);
                if (!state_dir.empty()) {
                    settings.record_folder = std::filesystem::path(state_dir) / "fault_proxy";
                }
                return std::make_shared<ProxyServer>(std::move(settings));
            };
            // A failure here destroys the leases taken so far: a half-made prepare leaves
            // nothing running.
            leases.push_back(lease_proxy(address_key, schedule_key, make,
                                         std::chrono::milliseconds(wait_ms_),
                                         [] { return host::cancelled(); }));
            const auto &proxy = leases.back().proxy();
            env[variable_of(upstream->name)] = proxy.address();
            report.push_back({{"name", upstream->name},
                              {"listen", proxy.address()},
                              {"target", upstream->target},
                              {"shared", leases.back().shared()}});
        }
        // A potent first fault for the cell's first repetitions (the host says which).
        const auto fate = potent_fate(plan, request.value("repetition", std::int64_t{-1}));
        if (fate != ProxyServer::Fate::none) {
            for (const auto &lease : leases) {
                lease.proxy().force_next(fate);
            }
        }
        const std::uint64_t token = runs_prepared_ + 1;
        Running running{std::move(leases), {}, plan};
        for (const auto &lease : running.leases) {
            running.at_start.push_back(lease.proxy().counters());
        }
        std::string response = json{
            {"active", plan.active},
            {"spec", spec},
            {"state", {{"token", token}}},
            {"fault_proxy",
             {{"plan", describe(plan)},
              {"seed", seed},
              {"first_connection", fate_name(fate)},
              {"upstreams",
               report}}}}.dump();
        // Last, once nothing can fail: only a successful prepare gets a teardown.
        runs_prepared_ = token;
        running_.emplace(token, std::move(running));
        return response;
    }

    // What the proxies did between prepare and now: the faults the run's connections really
    // met. A proxy shared by concurrent runs of one preset counts their connections together.
    std::string tally(const std::string &state_json) override {
        const json state = json::parse(state_json);
        if (!state.is_object()) {
            return "{}";
        }
        const auto run = running_.find(state.value("token", std::uint64_t{0}));
        if (run == running_.end() || !run->second.plan.active) {
            return "{}";
        }
        const Running &running = run->second;
        // A potent first fault the run never met must not fall on a later run's connection.
        for (const auto &lease : running.leases) {
            lease.proxy().force_next(ProxyServer::Fate::none);
        }
        std::uint64_t connections = 0;
        std::uint64_t resets = 0;
        std::uint64_t timeouts = 0;
        std::uint64_t corrupted = 0;
        std::uint64_t replied = 0;
        std::string names;
        for (size_t i = 0; i < running.leases.size(); ++i) {
            const json now = running.leases[i].proxy().counters();
            const json &then = running.at_start[i];
            const auto delta = [&](const char *name) {
                return now.value(name, std::uint64_t{0}) - then.value(name, std::uint64_t{0});
            };
            connections += delta("connections");
            resets += delta("resets");
            timeouts += delta("timeouts");
            corrupted += delta("corrupted_bytes");
            replied += delta("bytes_to_client");
            names += (names.empty() ? "" : ", ") + running.leases[i].proxy().address();
        }
        return tally_response(running.plan, connections, resets, timeouts, corrupted, replied,
                              names)
            .dump();
    }

    void teardown(const std::string &state_json) override {
        const json state = json::parse(state_json);
        if (!state.is_object()) {
            return;
        }
        const auto run = running_.find(state.value("token", std::uint64_t{0}));
        if (run == running_.end()) {
            return;  // already torn down
        }
        for (const auto &lease : run->second.leases) {
            host::log(SBX_LOG_DEBUG, "proxy " + lease.proxy().address() +
                                         " at teardown: " + lease.proxy().counters().dump());
        }
        running_.erase(run);  // the last lease of an address stops its proxy
    }

    std::string sweep(const std::string &request_json) override {
        const json request = json::parse(request_json);
        const std::string state_dir = request.value("state_dir", "");
        if (state_dir.empty()) {
            return R"({"removed":[]})";
        }
        return json{{"removed", sweep_records(std::filesystem::path(state_dir) / "fault_proxy")}}
            .dump();
    }

  private:
    // The schedule's seed: the `seed` setting, mixed with the command's --seed when the
    // host sends one, so another --seed gives another schedule. (A schedule spans the runs
    // of a preset, so the per-run spec seed is not the one to use.)
    [[nodiscard]] std::uint64_t schedule_seed(const json &request) const {
        const auto command = request.find("seed");
        if (command == request.end() || !command->is_number_integer()) {
            return seed_;
        }
        return sbx::SplitMix64(seed_ ^ command->get<std::uint64_t>()).next();
    }

    std::uint64_t seed_ = 0;
    double corrupt_rate_ = 0.001;
    std::int64_t wait_ms_ = 600000;
    // One prepared run: its proxies, their counters when it started, and its plan.
    struct Running {
        std::vector<ProxyLease> leases;
        std::vector<json> at_start;
        FaultPlan plan;
    };
    std::map<std::uint64_t, Running> running_;
    std::uint64_t runs_prepared_ = 0;
    inline static std::atomic<std::uint64_t> any_port_leases_{0};
};

}  // namespace
}  // namespace sbx::fault_proxy

SBX_PLUGIN(sbx::fault_proxy::FaultProxyInjector);
