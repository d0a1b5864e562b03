// The child side of a job, between fork and exec: default signal dispositions, rlimits,
// stdio, nobody's identity, the workspace, exec; and the private /tmp the worker makes
// before it.
#pragma once

#include <cstdint>

#include "cgroup.hpp"
#include "job_request.hpp"

namespace sbx::guest {

// The target's descriptors, all opened by the worker: its stdin (a sealed memfd, as the
// local executor gives), where its output goes, its working folder (the job's work/, over
// 9p), and where a failed step is reported ("step errno"; the descriptor is close-on-exec,
// so a successful exec reports nothing).
struct TargetFds {
    int stdin_fd = -1;
    int stdout_fd = -1;
    int stderr_fd = -1;
    int work_dir_fd = -1;
    int report_fd = -1;
};

// Gives the calling worker, and so the target it clones, a /tmp of the job's own: a tmpfs
// in a mount namespace of its own (mounts made private), mode 1777, `disk_bytes` large
// when set. The worker holds the namespace, so it is torn down when the worker exits, after
// its answer, not in the target's exit; the job's processes are all killed by then. Jobs
// side by side and one after the other never see each other's files. 0 or the errno.
int enter_private_tmp(std::uint64_t disk_bytes);

// `private_tmp_errno`: enter_private_tmp's failure, reported as the "private-tmp" step.
[[noreturn]] void become_target(const JobCgroup &cgroup, const JobRequest &request,
                                const TargetFds &fds, int private_tmp_errno);

}  // namespace sbx::guest
