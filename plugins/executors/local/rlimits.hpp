// The per-process limits the child sets with setrlimit() before execve: CPU seconds, file
// size, no core dumps, and address space / process count when no cgroup holds those.
#pragma once

#include <vector>

#include "run_spec.hpp"
#include "spawn.hpp"

namespace sbx::local {

// Where the limits that have a better home than an rlimit are already held.
struct HeldElsewhere {
    bool memory_in_cgroup = false;
    bool pids_in_cgroup = false;
    bool disk_in_tmpfs = false;
};

// RLIMIT_CPU soft = ceil(cpu_time_s), hard = soft + 1 (a target with a SIGXCPU handler gets
// one second to wrap up); RLIMIT_CORE = 0; RLIMIT_FSIZE = disk_bytes when the workspace is
// no tmpfs of that size (which would otherwise turn ENOSPC into EFBIG at the same size);
// RLIMIT_AS when memory is not in a cgroup; RLIMIT_NPROC when pids are not in a cgroup.
std::vector<ResourceLimit> target_rlimits(const support::RunLimits &limits,
                                          const HeldElsewhere &held);

// The soft RLIMIT_CPU the target gets, in whole seconds (0: none).
double cpu_soft_limit_s(const support::RunLimits &limits);

}  // namespace sbx::local
