// The commands' output formats are fixed with -o/--format and -h/-n (no header), so the
// parsing below does not depend on a site's SQUEUE_FORMAT or on column widths.
#include "cluster/slurm_commands.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <sstream>

#include <spdlog/spdlog.h>

#include "util/command_output.hpp"
#include "util/errors.hpp"
#include "util/number_parse.hpp"

namespace sbx::cluster {
namespace {

using namespace std::chrono_literals;

// A busy controller answers in seconds; one that does not answer in a minute is down.
constexpr auto kCommandDeadline = 60s;

std::vector<std::string> split(const std::string &line, char separator) {
    std::vector<std::string> parts;
    std::string part;
    std::istringstream in(line);
    while (std::getline(in, part, separator)) {
        parts.push_back(part);
    }
    return parts;
}

// "123_4" -> 4; "123" or "123_[5-9]" -> -1 (not one task).
int task_index(const std::string &job_id) {
    const auto underscore = job_id.find('_');
    if (underscore == std::string::npos) {
        return -1;
    }
    const auto index =
        util::parse_uint64(job_id.substr(underscore + 1), util::LeadingPlus::refused);
    if (!index || *index > static_cast<uint64_t>(std::numeric_limits<int>::max())) {
        return -1;
    }
    return static_cast<int>(*index);
}

std::map<int, std::string> states_of(const std::string &text, char separator) {
    std::map<int, std::string> states;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        const auto parts = split(line, separator);
        if (parts.size() < 2) {
            continue;
        }
        const int index = task_index(parts[0]);
        if (index >= 0) {
            // sacct says "CANCELLED by 0": the state is the first word.
            states[index] = parts[1].substr(0, parts[1].find(' '));
        }
    }
    return states;
}

// A Slurm time limit in seconds (minutes, M:S, H:M:S, D-H, D-H:M, D-H:M:S); -1 for
// unlimited or what does not read as one.
long long limit_seconds(const std::string &text) {
    constexpr long long kUnreadable = -1;  // "unlimited", "infinite", a typo
    const auto dash = text.find('-');
    long long days = 0;
    std::string clock = text;
    if (dash != std::string::npos) {
        const auto whole_days = util::parse_int64(text.substr(0, dash));
        if (!whole_days) {
            return kUnreadable;
        }
        days = *whole_days;
        clock = text.substr(dash + 1);
    }
    const auto parts = split(clock, ':');
    std::vector<long long> values;
    values.reserve(parts.size());
    for (const auto &part : parts) {
        const auto value = util::parse_int64(part);
        if (!value) {
            return kUnreadable;
        }
        values.push_back(*value);
    }
    if (values.empty() || values.size() > 3) {
        return kUnreadable;
    }
    long long seconds = 0;
    if (dash != std::string::npos) {  // H, H:M, H:M:S
        const std::array<long long, 3> factors = {3600, 60, 1};
        for (size_t i = 0; i < std::min(values.size(), factors.size()); ++i) {
            seconds += values[i] * factors[i];
        }
    } else if (values.size() == 1) {  // minutes
        seconds = values[0] * 60;
    } else if (values.size() == 2) {  // M:S
        seconds = values[0] * 60 + values[1];
    } else {  // H:M:S
        seconds = values[0] * 3600 + values[1] * 60 + values[2];
    }
    return days * 86400 + seconds;
}

}  // namespace

bool slurm_installed() {
    return util::command_output({"sbatch", "--version"}, kCommandDeadline).ok();
}

std::string submit_array(const config::SlurmSettings &settings, const ArrayRequest &request) {
    std::vector<std::string> argv = {
        "sbatch", "--parsable",
        "--array=0-" + std::to_string(request.tasks - 1) +
            (settings.max_running > 0 ? "%" + std::to_string(settings.max_running) : ""),
        "--job-name=" + request.job_name, "--comment=" + request.comment,
        "--output=" + request.output, "--chdir=" + request.working_dir,
        "--cpus-per-task=" + std::to_string(settings.workers_per_task),
        // The host's environment (SANDBOX_*, PATH) as the worker's.
        "--export=ALL",
        // A task whose node failed is not requeued by Slurm, which would make its whole
        // shard again: the host submits only the runs the task did not record.
        "--no-requeue"};
    if (!settings.partition.empty()) {
        argv.push_back("--partition=" + settings.partition);
    }
    if (!settings.account.empty()) {
        argv.push_back("--account=" + settings.account);
    }
    if (!request.exclude_nodes.empty()) {
        std::string nodes;
        for (const auto &node : request.exclude_nodes) {
            nodes += (nodes.empty() ? "" : ",") + node;
        }
        argv.push_back("--exclude=" + nodes);
    }
    if (!settings.time_limit.empty()) {
        argv.push_back("--time=" + settings.time_limit);
        // SIGTERM a minute before the limit (the script execs the worker, so B: reaches
        // it): the worker stops between runs and cleans up, instead of being killed
        // KillWait seconds after the limit with its sandboxes in place. Not for limits
        // under ten minutes: Slurm may send it up to a minute early, which would stop a
        // short task as it starts, on every resubmission.
        if (limit_seconds(settings.time_limit) >= 600) {
            argv.push_back("--signal=B:TERM@60");
        }
    }
    argv.insert(argv.end(), settings.sbatch_options.begin(), settings.sbatch_options.end());
    argv.push_back(request.script);
    argv.insert(argv.end(), request.script_args.begin(), request.script_args.end());
    const auto result = util::command_output(argv, kCommandDeadline);
    if (!result.ok()) {
        throw EnvironmentError("sbatch refused the array " + request.job_name + " (" +
                               result.failure() +
                               "); check the slurm: settings (partition, account, time_limit, "
                               "sbatch_options) against `sinfo`");
    }
    // --parsable: "<id>" or "<id>;<cluster>".
    std::string id = result.out.substr(0, result.out.find_first_of(";\n"));
    if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos) {
        throw EnvironmentError("sbatch printed no job id for " + request.job_name + ": '" +
                               result.out + "'");
    }
    return id;
}

std::map<int, std::string> active_tasks(const std::string &job_id) {
    // Every state in which a task may still commit runs.
    const std::string states =
        "--states=PENDING,RUNNING,CONFIGURING,COMPLETING,SUSPENDED,REQUEUED,RESIZING,"
        "SIGNALING,STAGE_OUT";
    const auto result = util::command_output(
        {"squeue", "-h", "-r", "-j", job_id, states, "-o", "%i|%T"}, kCommandDeadline);
    if (!result.ok()) {
        // "Invalid job id specified": the controller forgot the job; nothing is active.
        if (result.err.find("Invalid job id") != std::string::npos) {
            return {};
        }
        throw EnvironmentError("squeue did not answer about job " + job_id + " (" +
                               result.failure() + ")");
    }
    return states_of(result.out, '|');
}

std::map<int, std::string> ended_tasks(const std::string &job_id) {
    const auto accounted = util::command_output(
        {"sacct", "-n", "-P", "-X", "-j", job_id, "-o", "JobID,State"}, kCommandDeadline);
    if (accounted.ok()) {
        return states_of(accounted.out, '|');
    }
    const auto remembered = util::command_output(
        {"squeue", "-h", "-r", "-j", job_id, "--states=all", "-o", "%i|%T"}, kCommandDeadline);
    return remembered.ok() ? states_of(remembered.out, '|') : std::map<int, std::string>{};
}

void cancel_job(const std::string &job_id) {
    (void)util::command_output({"scancel", job_id}, kCommandDeadline);
}

std::vector<ProjectJob> project_jobs() {
    const auto result = util::command_output({"squeue", "-h", "--me", "-o", "%i|%j|%T|%k"},
                                             std::chrono::seconds(15));
    std::vector<ProjectJob> jobs;
    if (!result.ok()) {
        // No Slurm here (squeue not installed, or no cluster configured) is normal; a
        // configured controller that does not answer is said, or a clean check-resources
        // would hide the jobs it could not look for.
        if (result.timed_out || result.err.find("controller") != std::string::npos) {
            spdlog::warn(
                "squeue did not answer ({}): Slurm jobs of dead hosts were not looked "
                "for; check the controller with `scontrol ping`",
                result.failure());
        }
        return jobs;
    }
    std::istringstream in(result.out);
    for (std::string line; std::getline(in, line);) {
        auto parts = split(line, '|');
        if (parts.size() < 4 || parts[1].rfind(kJobNamePrefix, 0) != 0 ||
            parts[3].rfind(kJobCommentPrefix, 0) != 0) {
            continue;
        }
        jobs.push_back({parts[0], parts[1], parts[2], parts[3]});
    }
    return jobs;
}

}  // namespace sbx::cluster
