// The cgroups of one run, whichever cgroup version made them: the fds a child writes "0"
// into to join them, and what the kernel counted (OOM kills, refused forks, throttling).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sbx::local {

struct CgroupRequest {
    std::string name;                  // run-<host pid>-<counter>, under a sandbox-runner folder
    std::uint64_t memory_bytes = 0;    // 0: no memory cgroup wanted
    std::uint64_t pids = 0;            // 0: no pids cgroup wanted
    double cpu_cores = 0;              // 0: no CPU quota wanted
    std::string io_device;             // "MAJ:MIN" of the disk to throttle, with disk_write_bps
    std::uint64_t disk_write_bps = 0;  // 0: no write throttle wanted

    [[nodiscard]] bool wants_io() const { return disk_write_bps > 0 && !io_device.empty(); }
    [[nodiscard]] bool wants_any() const {
        return memory_bytes > 0 || pids > 0 || cpu_cores > 0 || wants_io();
    }
};

// The CFS bandwidth period every run gets, and its quota for a share of cores (at least
// the kernel's minimum of 1 ms).
inline constexpr std::uint64_t kCpuPeriodUs = 100000;
std::uint64_t cpu_quota_us(double cpu_cores);

struct CgroupCounters {
    std::uint64_t oom_kills = 0;                     // processes the memory controller killed
    std::uint64_t pids_refused = 0;                  // forks refused at pids.max
    std::optional<std::uint64_t> memory_peak_bytes;  // when the kernel reports it
    std::uint64_t cpu_throttled_periods = 0;         // CFS periods in which the quota ran out
    double cpu_throttled_s = 0;                      // time spent throttled
};

class RunCgroups {
  public:
    virtual ~RunCgroups() = default;
    // "cgroup_v1" or "cgroup_v2", for the result's enforcement report.
    [[nodiscard]] virtual const char *version() const = 0;
    [[nodiscard]] virtual bool limits_memory() const = 0;
    [[nodiscard]] virtual bool limits_pids() const = 0;
    [[nodiscard]] virtual bool limits_cpu() const = 0;
    [[nodiscard]] virtual bool limits_disk_io() const = 0;
    // How swap is held to the memory limit, for the enforcement report: the file written, or
    // "none (...)" saying why the target may swap past the limit.
    [[nodiscard]] virtual std::string memory_swap() const = 0;
    // Open cgroup.procs files; valid as long as this object.
    [[nodiscard]] virtual std::vector<int> join_fds() const = 0;
    // The run's one cgroup v2 folder, open, for clone3(CLONE_INTO_CGROUP); -1 under cgroup v1
    // (a folder per controller: the child joins through join_fds()).
    [[nodiscard]] virtual int folder_fd() const { return -1; }
    [[nodiscard]] virtual CgroupCounters counters() const = 0;
};

// A recognisable, unique name: `purge-stale` finds leftovers of crashed hosts by the prefix.
std::string next_cgroup_name();

// cgroup v2 when the unified hierarchy at /sys/fs/cgroup offers the controllers, else v1.
// nullptr when neither can hold any of the requested limits (the caller falls back to
// rlimits). A result may hold only some of them: check the limits_*() functions.
std::unique_ptr<RunCgroups> make_run_cgroups(const CgroupRequest &request);

// The two implementations (cgroup_v1.cpp, cgroup_v2.cpp); nullptr when unusable here.
std::unique_ptr<RunCgroups> make_cgroups_v1(const CgroupRequest &request);
std::unique_ptr<RunCgroups> make_cgroups_v2(const CgroupRequest &request);

}  // namespace sbx::local
