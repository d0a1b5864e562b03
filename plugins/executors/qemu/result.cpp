// From the agent's raw facts to a verdict. The agent reports what the guest kernel counted
// (wait status, cgroup OOM kills and pids refusals, CPU time); classify() decides.
#include "result.hpp"

#include <cstring>

#include <sbx/utf8.hpp>
#include "support/classify.hpp"
#include "support/number_parse.hpp"

namespace sbx::qemu {

using nlohmann::json;

void put_report(json &result, const AgentReport &report, const support::RunSpec &spec) {
    const std::uint64_t cap = spec.limits.output_bytes;
    const auto put_output = [&](const char *name, const std::string &kept) {
        const std::string field(name);
        const std::uint64_t total = report.number(field + "_bytes");
        result[field] = utf8_stand_in(kept, static_cast<std::size_t>(cap));
        result[field + "_bytes"] = total;
        result[field + "_truncated"] = total > kept.size();
    };
    put_output("stdout", report.stdout_text);
    put_output("stderr", report.stderr_text);
    result["wall_s"] = static_cast<double>(report.number("wall_ns")) / 1e9;
    result["cpu_user_s"] = static_cast<double>(report.number("user_us")) / 1e6;
    result["cpu_sys_s"] = static_cast<double>(report.number("sys_us")) / 1e6;
    result["max_rss_kb"] = report.number("max_rss_kb");

    if (const std::string failed = report.text("spawn_error"); !failed.empty()) {
        // "<step> <errno>": the command never ran, as the local executor reports it. The
        // step may be words ("drop privileges"): the errno is the last one.
        const size_t space = failed.rfind(' ');
        const auto number = space == std::string::npos
                                ? std::nullopt
                                : support::parse_int64(std::string_view(failed).substr(space + 1));
        const int error = static_cast<int>(number.value_or(0));
        result["error"] = "cannot execute '" + spec.argv.front() + "' in the guest (" +
                          failed.substr(0, space) + "): " + std::strerror(error);
        return;
    }
    support::Evidence evidence;
    evidence.wait_status = static_cast<int>(report.number("wait_status"));
    evidence.wall_timeout = report.number("timed_out") != 0;
    // The agent sets RLIMIT_CPU to the limit rounded up to whole seconds, as local does.
    evidence.cpu_soft_limit_s =
        spec.limits.cpu_time_s > 0 && spec.limits.cpu_time_s < 365.0 * 24 * 3600
            ? static_cast<double>(static_cast<std::uint64_t>(spec.limits.cpu_time_s + 0.999))
            : 0;
    evidence.cpu_used_s = result["cpu_user_s"].get<double>() + result["cpu_sys_s"].get<double>();
    evidence.oom_kills = report.number("oom_kills");
    evidence.pids_refused = report.number("pids_refused");
    evidence.cpu_throttled = report.number("cpu_throttled") != 0;
    const support::Verdict verdict = support::classify(evidence);
    result["status"] = verdict.status;
    result["exit_code"] = verdict.exit_code;
    result["signal"] = verdict.signal;
    result["limit"] = verdict.limit;
    result["limits_hit"] = verdict.limits_hit;
    result["error"] = "";
}

void put_vm_error(json &result, const std::string &message, std::uint64_t attempts) {
    result["status"] = "XX";
    result["error"] = "qemu: " + message;
    result["sandbox_fault"] = true;  // the guest failed, not (as far as it can tell) the target
    result["diagnostics"] = {{"vm_error", message}, {"attempts", attempts}};
}

}  // namespace sbx::qemu
