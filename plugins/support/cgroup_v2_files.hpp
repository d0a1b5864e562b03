// What a cgroup v2 folder tells: the kernel's counters of a run (OOM kills, refused forks,
// CPU time and throttling, peak memory, block I/O), the controllers it offers and hands on,
// and the processes in it. The one home of these reads for every executor and the qemu guest.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sbx::support {

// Where the unified hierarchy is mounted, on the host and in the qemu guest.
inline constexpr const char kCgroupRoot[] = "/sys/fs/cgroup";

// The counters of one cgroup v2 folder. Each is nullopt when its file is missing or
// unreadable: its controller is not enabled there, or the kernel is too old.
struct CgroupV2Counters {
    std::optional<std::uint64_t> oom_kills;              // memory.events oom_kill
    std::optional<std::uint64_t> memory_peak_bytes;      // memory.peak (Linux 5.19+)
    std::optional<std::uint64_t> pids_refused;           // pids.events max: forks refused
    std::optional<std::uint64_t> cpu_user_usec;          // cpu.stat user_usec
    std::optional<std::uint64_t> cpu_system_usec;        // cpu.stat system_usec
    std::optional<std::uint64_t> cpu_throttled_periods;  // cpu.stat nr_throttled
    std::optional<std::uint64_t> cpu_throttled_usec;     // cpu.stat throttled_usec
    // io.stat over every device; 0 when io.stat is readable but lists no device yet (the
    // cgroup has done no block I/O).
    std::optional<std::uint64_t> disk_read_bytes;
    std::optional<std::uint64_t> disk_write_bytes;
};

// Reads memory.events, memory.peak, pids.events, cpu.stat and io.stat of `folder`.
CgroupV2Counters read_cgroup_v2_counters(const std::string &folder);

// True when a cgroup v2 hierarchy is mounted at `root` (it has a cgroup.controllers): the
// unified layout, not v1's folder per controller.
bool cgroup_v2_mounted(const std::string &root = kCgroupRoot);

// The controllers `folder` may hand to its children (cgroup.controllers), as the kernel
// lists them ("cpu io memory pids"); nullopt when unreadable (no v2 folder).
std::optional<std::string> offered_controllers(const std::string &folder);

// The controllers `folder` hands to its children now (cgroup.subtree_control); "" when
// unreadable.
std::string enabled_controllers(const std::string &folder);

// The processes in `folder` (cgroup.procs, the same file in v1); nullopt when unreadable.
std::optional<std::vector<pid_t>> cgroup_members(const std::string &folder);

}  // namespace sbx::support
