// The child side of a job, between fork and exec: into the job's cgroup, default signal
// dispositions, a private /tmp, rlimits, stdio, nobody's identity, the workspace, exec.
#pragma once

#include <string>

#include "cgroup.hpp"
#include "job_request.hpp"

namespace sbx::guest {

// Where the target's output goes, and where a failed step is reported ("step errno"; the
// descriptor is close-on-exec, so a successful exec reports nothing).
struct TargetPipes {
    int stdout_fd = -1;
    int stderr_fd = -1;
    int report_fd = -1;
};

[[noreturn]] void become_target(const JobCgroup &cgroup, const std::string &job_dir,
                                const JobRequest &request, const TargetPipes &pipes);

}  // namespace sbx::guest
