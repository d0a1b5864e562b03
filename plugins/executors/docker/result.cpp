// Classification mirrors support/classify.cpp (local, qemu) so a workflow scores the same under
// both.
#include "result.hpp"

#include <signal.h>

#include <chrono>
#include <cmath>

#include <sbx/utf8.hpp>
#include "support/blank_result.hpp"

namespace sbx::docker {

using nlohmann::json;

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

json empty_result(const RunSpec &spec) {
    json result = support::blank_result(spec.run_id);
    result["image"] = spec.image;
    return result;
}

void put_ending(json &result, const Ending &ending) {
    std::string status = "OK";
    std::string limit;
    long exit_code = ending.exit_code;
    int signal = 0;
    if (ending.timed_out) {
        status = "TO";
        limit = "timeout";
        exit_code = 128 + 9;
        signal = 9;
    } else if (ending.cpu_time_limited && exit_code == 128 + SIGXCPU) {
        status = "TO";
        limit = "cpu_time";
        signal = SIGXCPU;
    } else if (ending.oom_killed) {
        status = "OOM";
        limit = "memory";
        signal = exit_code > 128 ? static_cast<int>(exit_code - 128) : 0;
    } else if (exit_code > 128 && exit_code <= 128 + 64) {
        status = "SG";
        signal = static_cast<int>(exit_code - 128);
    } else if (exit_code != 0) {
        status = "RE";
    }
    result["status"] = status;
    result["exit_code"] = exit_code;
    result["signal"] = signal;
    result["limit"] = limit;
    result["limits_hit"] = limit.empty() ? json::array() : json::array({limit});
    result["wall_s"] = ending.wall_s;
}

void put_output(json &result, const char *name, const CappedOutput &output, std::uint64_t cap) {
    const std::string field(name);
    result[field] = utf8_stand_in(output.kept(), static_cast<std::size_t>(cap));
    result[field + "_bytes"] = output.total_bytes();
    result[field + "_truncated"] = output.truncated();
}

void put_usage(json &result, const std::string &source, const CgroupFigures &figures) {
    if (source.empty()) {
        result["usage_source"] = "none (the container's cgroup is not readable here)";
        return;
    }
    result["usage_source"] = source;
    // Microseconds: v1 splits nanoseconds by tick ratios, which prints as 0.00800000000000001.
    result["cpu_user_s"] = std::round(figures.cpu_user_s * 1e6) / 1e6;
    result["cpu_sys_s"] = std::round(figures.cpu_sys_s * 1e6) / 1e6;
    if (figures.memory_peak_bytes) {
        result["max_rss_kb"] = *figures.memory_peak_bytes / 1024;
    }
    if (figures.disk_read_bytes && figures.disk_write_bytes) {
        result["disk_read_bytes"] = *figures.disk_read_bytes;
        result["disk_write_bytes"] = *figures.disk_write_bytes;
    }
}

bool put_helper_failure(json &result, long exit_code, const std::string &stderr_text) {
    constexpr long kHelperFailed = 125;
    if (exit_code != kHelperFailed) {
        return false;
    }
    for (const char *prefix : {"sbx-docker-run-init: ", "sbx-docker-netns-exec: "}) {
        size_t at = stderr_text.rfind(prefix);
        if (at != std::string::npos && (at == 0 || stderr_text[at - 1] == '\n')) {
            const std::string line = stderr_text.substr(at, stderr_text.find('\n', at) - at);
            result["status"] = "XX";
            result["error"] = "docker: " + line;
            // A process the run started that would not die is the target's doing; every
            // other failure of a helper is the sandbox's.
            if (line.find("could not be killed") == std::string::npos) {
                result["sandbox_fault"] = true;
            }
            return true;
        }
    }
    return false;
}

void put_docker_error(json &result, const std::string &message, int attempts, bool sandbox_fault) {
    result["status"] = "XX";
    result["error"] = "docker: " + message;
    if (sandbox_fault) {
        result["sandbox_fault"] = true;  // the host runs it again
    }
    result["diagnostics"] = {{"docker_error", message}, {"attempts", attempts}};
}

void note_docker_error(json &result, const std::string &message) {
    result["diagnostics"]["docker_error"] = message;
}

}  // namespace sbx::docker
