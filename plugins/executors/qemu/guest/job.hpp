// One command the host queued in the share: read from the job folder, run in its own cgroup
// with the limits the host asked for, and what happened written back into the same folder.
#pragma once

#include <string>

namespace sbx::guest {

// Runs the job in `job_dir` (argv, env, stdin, limits, work/) and writes `stdout`,
// `stderr` and `result` there. `name` names its cgroup. Returns "" or what went wrong
// before the command could start (the job folder is unreadable, say).
std::string run_job(const std::string &job_dir, const std::string &name);

}  // namespace sbx::guest
