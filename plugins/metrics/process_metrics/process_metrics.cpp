// The `process_metrics` collector: per-run process figures from the executor results of
// a run's steps (success, time, CPU, peak memory, exit code, output volume, and the block
// I/O of executors that report it).
#include <sbx/plugin.hpp>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace {

using nlohmann::json;

// What collect reads of a request, taken while it is lexed with nothing built: a request
// holds each step's whole result (outputs, enforcement, injections), and building all that
// as a document was most of the collector's time (13 us of 15 per run measured here).
class RequestFigures final : public json::json_sax_t {
  public:
    bool run_phase = true;
    bool passed = false;
    double wall_s = 0, cpu_s = 0, max_rss_kb = 0, stdout_bytes = 0, stderr_bytes = 0;
    // Summed over the steps that report them; none when no step does (an executor that
    // cannot count block I/O says nothing rather than 0).
    std::optional<double> disk_read_bytes, disk_write_bytes;
    int exit_code = 0;  // the first failing step's: it says most about why the run failed

    bool null() override { return true; }
    bool boolean(bool value) override {
        if (depth_ == 1 && top_key_ == "passed") {
            passed = value;
        }
        return true;
    }
    bool number_integer(number_integer_t value) override {
        if (in_step() && step_key_ == "exit_code" && exit_code == 0) {
            exit_code = static_cast<int>(value);
        }
        return step_figure(static_cast<double>(value));
    }
    bool number_unsigned(number_unsigned_t value) override {
        return number_integer(static_cast<number_integer_t>(value));
    }
    bool number_float(number_float_t value, const string_t & /*text*/) override {
        return step_figure(value);
    }
    bool string(string_t &value) override {
        if (depth_ == 1 && top_key_ == "phase") {
            run_phase = value == "run";
        }
        return true;
    }
    bool binary(binary_t & /*value*/) override { return true; }
    bool start_object(std::size_t /*elements*/) override { return deeper(); }
    bool end_object() override { return shallower(); }
    bool start_array(std::size_t /*elements*/) override { return deeper(); }
    bool end_array() override { return shallower(); }
    bool key(string_t &name) override {
        if (depth_ == 1) {
            top_key_ = name;
        } else if (depth_ == 3) {
            step_key_ = name;
        }
        return true;
    }
    bool parse_error(std::size_t /*position*/, const std::string & /*token*/,
                     const nlohmann::detail::exception &error) override {
        throw sbx::Error(SBX_INVALID, std::string("collect request: ") + error.what());
    }

  private:
    // A number directly in an object of the top-level "steps" list.
    [[nodiscard]] bool in_step() const { return depth_ == 3 && top_key_ == "steps"; }
    bool step_figure(double value) {
        if (!in_step()) {
            return true;
        }
        if (step_key_ == "wall_s") {
            wall_s += value;
        } else if (step_key_ == "cpu_user_s" || step_key_ == "cpu_sys_s") {
            cpu_s += value;
        } else if (step_key_ == "max_rss_kb") {
            max_rss_kb = std::max(max_rss_kb, value);
        } else if (step_key_ == "stdout_bytes") {
            stdout_bytes += value;
        } else if (step_key_ == "stderr_bytes") {
            stderr_bytes += value;
        } else if (step_key_ == "disk_read_bytes") {
            disk_read_bytes = disk_read_bytes.value_or(0) + value;
        } else if (step_key_ == "disk_write_bytes") {
            disk_write_bytes = disk_write_bytes.value_or(0) + value;
        }
        return true;
    }
    bool deeper() {
        ++depth_;
        return true;
    }
    bool shallower() {
        --depth_;
        return true;
    }
    int depth_ = 0;
    std::string top_key_;
    std::string step_key_;
};

class ProcessMetrics final : public sbx::MetricsCollector {
  public:
    static constexpr sbx::About about{
        "process_metrics",
        "Process metrics",
        "1.1.0",
        "Per-run process metrics: success, wall_s, cpu_s, max_rss_kb, exit_code, "
        "stdout_bytes, stderr_bytes, and disk_read_bytes, disk_write_bytes where the executor "
        "counts block I/O.",
        R"({"type":"object","additionalProperties":false,"properties":{}})",
        "sandbox-runner",
        "https://example.invalid/sandbox-runner",
        "Apache-2.0"};

    explicit ProcessMetrics(const std::string & /*config*/) {}

    std::string collect(const std::string &request_json) override {
        RequestFigures request;
        json::sax_parse(request_json, &request);
        if (!request.run_phase) {
            return "{}";  // per-cell figures are the host's ROI; nothing to add here
        }
        json answer{{"success", request.passed ? 1.0 : 0.0},
                    {"wall_s", request.wall_s},
                    {"cpu_s", request.cpu_s},
                    {"max_rss_kb", request.max_rss_kb},
                    {"exit_code", request.exit_code},
                    {"stdout_bytes", request.stdout_bytes},
                    {"stderr_bytes", request.stderr_bytes}};
        if (request.disk_read_bytes) {
            answer["disk_read_bytes"] = *request.disk_read_bytes;
        }
        if (request.disk_write_bytes) {
            answer["disk_write_bytes"] = *request.disk_write_bytes;
        }
        return answer.dump();
    }
};

}  // namespace

SBX_PLUGIN(ProcessMetrics);
