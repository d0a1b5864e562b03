// The `process_metrics` collector: per-run process figures from the executor results of
// a run's steps (success, time, CPU, peak memory, exit code, output volume).
#include <sbx/plugin.hpp>

#include <algorithm>
#include <nlohmann/json.hpp>

namespace {

using nlohmann::json;

class ProcessMetrics final : public sbx::MetricsCollector {
  public:
    static constexpr sbx::About about{
        "process_metrics",
        "Process metrics",
        "1.0.0",
        "Per-run process metrics: success, wall_s, cpu_s, max_rss_kb, exit_code, "
        "stdout_bytes, stderr_bytes.",
        R"({"type":"object","additionalProperties":false,"properties":{}})",
        "sandbox-runner",
        "https://example.invalid/sandbox-runner",
        "Apache-2.0"};

    explicit ProcessMetrics(const std::string & /*config*/) {}

    std::string collect(const std::string &request_json) override {
        const json request = json::parse(request_json);
        if (request.value("phase", "run") != "run") {
            return "{}";  // per-cell figures are the host's ROI; nothing to add here
        }
        double wall_s = 0, cpu_s = 0, max_rss_kb = 0, stdout_bytes = 0, stderr_bytes = 0;
        int exit_code = 0;
        for (const auto &step : request.value("steps", json::array())) {
            wall_s += step.value("wall_s", 0.0);
            cpu_s += step.value("cpu_user_s", 0.0) + step.value("cpu_sys_s", 0.0);
            max_rss_kb = std::max(max_rss_kb, step.value("max_rss_kb", 0.0));
            stdout_bytes += step.value("stdout_bytes", 0.0);
            stderr_bytes += step.value("stderr_bytes", 0.0);
            // The first failing step's exit code says most about why the run failed.
            if (exit_code == 0) {
                exit_code = step.value("exit_code", 0);
            }
        }
        return json{{"success", request.value("passed", false) ? 1.0 : 0.0},
                    {"wall_s", wall_s},
                    {"cpu_s", cpu_s},
                    {"max_rss_kb", max_rss_kb},
                    {"exit_code", exit_code},
                    {"stdout_bytes", stdout_bytes},
                    {"stderr_bytes", stderr_bytes}}
            .dump();
    }
};

}  // namespace

SBX_PLUGIN(ProcessMetrics);
