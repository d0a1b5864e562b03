// The cgroups of one run, whichever cgroup version made them: the fds a child writes "0"
// into to join them, and what the kernel counted (OOM kills, refused forks) once it ended.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sbx::local {

struct CgroupRequest {
    std::string name;                // run-<host pid>-<counter>, under a sandbox-runner folder
    std::uint64_t memory_bytes = 0;  // 0: no memory cgroup wanted
    std::uint64_t pids = 0;          // 0: no pids cgroup wanted
};

struct CgroupCounters {
    std::uint64_t oom_kills = 0;                     // processes the memory controller killed
    std::uint64_t pids_refused = 0;                  // forks refused at pids.max
    std::optional<std::uint64_t> memory_peak_bytes;  // when the kernel reports it
};

class RunCgroups {
  public:
    virtual ~RunCgroups() = default;
    // "cgroup_v1" or "cgroup_v2", for the result's enforcement report.
    [[nodiscard]] virtual const char *version() const = 0;
    [[nodiscard]] virtual bool limits_memory() const = 0;
    [[nodiscard]] virtual bool limits_pids() const = 0;
    // Open cgroup.procs files; valid as long as this object.
    [[nodiscard]] virtual std::vector<int> join_fds() const = 0;
    [[nodiscard]] virtual CgroupCounters counters() const = 0;
};

// A recognisable, unique name: `purge-stale` finds leftovers of crashed hosts by the prefix.
std::string next_cgroup_name();

// cgroup v2 when the unified hierarchy at /sys/fs/cgroup offers the controllers, else v1.
// nullptr when neither can hold any of the requested limits (the caller falls back to
// rlimits). A result may hold only some of them: check limits_memory()/limits_pids().
std::unique_ptr<RunCgroups> make_run_cgroups(const CgroupRequest &request);

// The two implementations (cgroup_v1.cpp, cgroup_v2.cpp); nullptr when unusable here.
std::unique_ptr<RunCgroups> make_cgroups_v1(const CgroupRequest &request);
std::unique_ptr<RunCgroups> make_cgroups_v2(const CgroupRequest &request);

}  // namespace sbx::local
