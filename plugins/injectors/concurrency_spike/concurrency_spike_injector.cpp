// The `concurrency_spike` injector: while a run executes, THREAD_BURST threads compete with
// it and waves of ASYNC_TASK_BURST short tasks come and go (the CONCURRENCY_LEVEL copies
// of each step are the host's part of the spike). Active when the preset lists
// concurrency_spike in FAILURE_MODES or sets THREAD_BURST / ASYNC_TASK_BURST above 0.
#include <sbx/plugin.hpp>

#include <nlohmann/json.hpp>

#include "burst_plan.hpp"
#include "support/probe_request.hpp"
#include "thread_burst.hpp"

namespace {

using nlohmann::json;
using sbx::concurrency_spike::Burst;
using sbx::concurrency_spike::BurstPlan;

// The most threads a preset may ask for unless the plugin's `max_threads` says otherwise.
constexpr std::uint32_t kDefaultThreadCap = 512;

class ConcurrencySpike final : public sbx::Injector {
  public:
    static constexpr sbx::About about{
        "concurrency_spike",
        "Concurrency spike",
        "1.0.0",
        "Runs THREAD_BURST competing threads and waves of ASYNC_TASK_BURST short tasks in a "
        "helper process for the duration of each run, when the preset lists "
        "concurrency_spike in FAILURE_MODES or sets those keys.",
        R"json({"type":"object","additionalProperties":false,"properties":{
              "max_threads":{"type":"integer","minimum":1,"maximum":4096,"default":512,
                             "description":"the most threads a preset may ask for"}}})json",
        "sandbox-runner",
        "https://example.invalid/sandbox-runner",
        "Apache-2.0"};

    explicit ConcurrencySpike(const std::string &config_json) {
        const json config = json::parse(config_json);
        thread_cap_ = config.value("max_threads", kDefaultThreadCap);
    }

    std::string prepare(const std::string &request_json) override {
        const json request = json::parse(request_json);
        const BurstPlan plan = sbx::concurrency_spike::plan_from_preset(
            request.value("preset", json::object()), thread_cap_);
        if (!plan.active) {
            // No "spec": left as it was. Idle: the preset decided, for every run under it.
            return R"({"active":false,"state":null,"idle":true})";
        }
        if (sbx::support::is_probe(request)) {
            return sbx::support::probe_answer(
                true,
                sbx::support::claimed(request.value("preset", json::object()),
                                      {"THREAD_BURST", "ASYNC_TASK_BURST"}, {"concurrency_spike"}));
        }
        const std::filesystem::path state_dir =
            request.contains("state_dir")
                ? std::filesystem::path(request["state_dir"].get<std::string>()) /
                      "concurrency_spike"
                : std::filesystem::path();
        const Burst burst = sbx::concurrency_spike::start_burst(plan, state_dir);
        const std::uint32_t wave = sbx::concurrency_spike::wave_size(plan);
        sbx::host::log(SBX_LOG_DEBUG, "thread burst pid " + std::to_string(burst.process.pid) +
                                          ": " + std::to_string(burst.threads_started) +
                                          " competing threads, waves of " + std::to_string(wave) +
                                          " short tasks");
        json spec = request.value("spec", json::object());
        json &env = spec["env"];
        env["SANDBOX_THREAD_BURST_PID"] = std::to_string(burst.process.pid);
        env["SANDBOX_THREAD_BURST"] = std::to_string(burst.threads_started);
        env["SANDBOX_ASYNC_TASK_BURST"] = std::to_string(wave);
        return json{
            {"active", true},
            {"spec", spec},
            {"state",
             {{"pid", burst.process.pid},
              {"start_time", burst.process.start_time},
              {"pid_file", burst.process.pid_file.string()}}},
            {"metrics", {{"thread_burst", burst.threads_started}, {"async_task_burst", wave}}},
            {"applied",
             {std::to_string(burst.threads_started) + " competing threads, waves of " +
              std::to_string(wave) + " short tasks"}},
            {"concurrency_spike",
             {{"pid", burst.process.pid},
              {"threads", burst.threads_started},
              {"threads_asked", plan.threads},
              {"async_tasks", wave},
              {"max_threads", plan.max_threads}}}}
            .dump();
    }

    void teardown(const std::string &state_json) override {
        const json state = json::parse(state_json);
        if (state.is_object()) {
            sbx::support::stop_helper({state.value("pid", 0), state.value("start_time", 0ULL),
                                       state.value("pid_file", std::string())});
        }
    }

    std::string sweep(const std::string &request_json) override {
        const json request = json::parse(request_json);
        if (!request.contains("state_dir")) {
            return R"({"removed":[]})";
        }
        return json{{"removed", sbx::support::sweep_helpers(
                                    std::filesystem::path(request["state_dir"].get<std::string>()) /
                                        "concurrency_spike",
                                    "burst", request.value("dry_run", false))}}
            .dump();
    }

  private:
    std::uint32_t thread_cap_ = kDefaultThreadCap;
};

}  // namespace

SBX_PLUGIN(ConcurrencySpike);
