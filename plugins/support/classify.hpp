// Classifying an ended run: its status (OK, RE, SG, TO, OOM) and which limit ended or hurt
// it, from the wait status and what the kernel counted.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace sbx::support {

// What we know about an ended target.
struct Evidence {
    int wait_status = 0;
    bool wall_timeout = false;       // we killed it at the deadline
    double cpu_soft_limit_s = 0;     // RLIMIT_CPU soft limit, 0 when none
    double cpu_used_s = 0;           // user + system time of the target and its reaped children
    std::uint64_t oom_kills = 0;     // from the memory cgroup
    std::uint64_t pids_refused = 0;  // from the pids cgroup
    bool file_size_reached = false;  // a workspace file is as long as RLIMIT_FSIZE allows
    bool workspace_full = false;     // the tmpfs workspace has no free block left
    bool cpu_throttled = false;      // the CPU quota ran out in at least one period
};

struct Verdict {
    std::string status;  // OK, RE, SG, TO, OOM
    int exit_code = 0;   // 128 + signal when killed by one
    int signal = 0;
    std::string limit;                    // the limit that ended or hurt a failed run, or ""
    std::vector<std::string> limits_hit;  // every limit that was seen to bite
};

Verdict classify(const Evidence &evidence);

}  // namespace sbx::support
