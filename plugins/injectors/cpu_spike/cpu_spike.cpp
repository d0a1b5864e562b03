// The `cpu_spike` injector: while a run executes, competing processes burn CPU. Active
// when the preset sets CPU_SPIKE or lists cpu_spike in FAILURE_MODES.
#include <sbx/plugin.hpp>

#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "burner.hpp"
#include "support/number_parse.hpp"
#include "support/preset_activation.hpp"
#include "support/probe_request.hpp"

namespace {

using nlohmann::json;

// The most burners one step may get, as for the `burners` setting: the count becomes
// that many forks.
constexpr long long kMaxBurners = 64;

// A whole number of burners from CPU_SPIKE, refused when it is out of range rather than
// truncated (4294967297 must not become 1, nor 2000000000 that many forks).
unsigned checked_count(long long count, const std::string &text) {
    if (count < 0 || count > kMaxBurners) {
        throw sbx::Error(SBX_INVALID, "CPU_SPIKE '" + text +
                                          "' is not a number of burners from 0 to " +
                                          std::to_string(kMaxBurners));
    }
    return static_cast<unsigned>(count);
}

// CPU_SPIKE may be a flag ("1", true) or a number of burners ("3").
unsigned burners_requested(const json &preset, unsigned fallback) {
    const json value = preset.value("CPU_SPIKE", json());
    unsigned count = 0;
    if (value.is_number_integer()) {
        // Unsigned too: one above LLONG_MAX reads as negative and is refused.
        count = checked_count(value.get<long long>(), value.dump());
    } else if (value.is_boolean()) {
        count = value.get<bool>() ? fallback : 0;
    } else if (value.is_string()) {
        const auto text = value.get<std::string>();
        if (text == "true" || text == "yes") {
            count = fallback;
        } else {
            const auto number = sbx::support::parse_int64(text);
            if (!number) {
                throw sbx::Error(SBX_INVALID, "CPU_SPIKE '" + text +
                                                  "' is neither a flag nor a number of burners");
            }
            count = checked_count(*number, text);
        }
    } else if (!value.is_null()) {
        throw sbx::Error(SBX_INVALID, "CPU_SPIKE " + value.dump() +
                                          " is neither a flag nor a number of burners");
    }
    // "1" as a flag means "use the configured number of burners".
    if (count == 1) {
        count = fallback;
    }
    if (count == 0 && sbx::support::lists_failure_mode(preset, "cpu_spike")) {
        count = fallback;
    }
    return count;
}

class CpuSpike final : public sbx::Injector {
  public:
    static constexpr sbx::About about{
        "cpu_spike",
        "CPU spike",
        "1.0.0",
        "Runs competing CPU burner processes for the duration of each run when the preset "
        "sets CPU_SPIKE or lists cpu_spike in FAILURE_MODES.",
        R"json({"type":"object","additionalProperties":false,"properties":{
              "burners":{"type":"integer","minimum":1,"maximum":64,
                         "description":"burners per run when CPU_SPIKE is a flag; default: cores"}}})json",
        "sandbox-runner",
        "https://example.invalid/sandbox-runner",
        "Apache-2.0"};

    explicit CpuSpike(const std::string &config_json) {
        const json config = json::parse(config_json);
        default_burners_ =
            config.value("burners", std::max(1u, std::thread::hardware_concurrency()));
    }

    std::string prepare(const std::string &request_json) override {
        const json request = json::parse(request_json);
        json spec = request.value("spec", json::object());
        const unsigned count =
            burners_requested(request.value("preset", json::object()), default_burners_);
        if (count == 0) {
            // No "spec": the host keeps the one it sent, unchanged. Idle: the preset alone
            // decided, so no run under it needs asking (docs/abi.md, probe).
            return R"({"active":false,"state":null,"idle":true})";
        }
        if (sbx::support::is_probe(request)) {
            return sbx::support::probe_answer(
                true, sbx::support::claimed(request.value("preset", json::object()), {"CPU_SPIKE"},
                                            {"cpu_spike"}));
        }
        const std::filesystem::path state_dir =
            request.contains("state_dir")
                ? std::filesystem::path(request["state_dir"].get<std::string>()) / "cpu_spike"
                : std::filesystem::path();
        json state = json::array();
        std::string pids;
        try {
            for (unsigned i = 0; i < count; ++i) {
                const auto burner = cpu_spike::start_burner(state_dir);
                state.push_back({{"pid", burner.pid},
                                 {"start_time", burner.start_time},
                                 {"pid_file", burner.pid_file.string()}});
                pids += (pids.empty() ? "" : ",") + std::to_string(burner.pid);
            }
        } catch (...) {
            teardown(state.dump());  // a half-made spike must not outlive a failed prepare
            throw;
        }
        sbx::host::log(SBX_LOG_DEBUG,
                       "started " + std::to_string(count) + " CPU burner(s): pids " + pids);
        spec["env"]["SANDBOX_CPU_SPIKE_PIDS"] = pids;
        return json{{"active", true},
                    {"spec", spec},
                    {"state", state},
                    {"applied", {std::to_string(count) + " CPU burner(s)"}}}
            .dump();
    }

    void teardown(const std::string &state_json) override {
        const json state = json::parse(state_json);
        if (!state.is_array()) {
            return;
        }
        for (const auto &entry : state) {
            cpu_spike::stop_burner({entry.value("pid", 0), entry.value("start_time", 0ULL),
                                    entry.value("pid_file", std::string())});
        }
    }

    std::string sweep(const std::string &request_json) override {
        const json request = json::parse(request_json);
        if (!request.contains("state_dir")) {
            return json{{"removed", json::array()}}.dump();
        }
        const auto removed = cpu_spike::sweep_burners(
            std::filesystem::path(request["state_dir"].get<std::string>()) / "cpu_spike",
            request.value("dry_run", false));
        return json{{"removed", removed}}.dump();
    }

  private:
    unsigned default_burners_ = 1;
};

}  // namespace

SBX_PLUGIN(CpuSpike);
