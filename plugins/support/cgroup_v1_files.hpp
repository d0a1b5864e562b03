// What the cgroup v1 folders of a run tell (a folder per controller): OOM kills and peak
// memory, refused forks, CPU throttling and time, block I/O. The v1 side of the home of
// cgroup counter reads (cgroup_v2_files.hpp), for machines that still run v1.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "cgroup_files.hpp"

namespace sbx::support {

// Of a memory controller folder. oom_kill is in memory.oom_control since Linux 4.13;
// failcnt alone would also count reclaim that worked.
struct CgroupV1Memory {
    std::optional<std::uint64_t> oom_kills;          // memory.oom_control oom_kill
    std::optional<std::uint64_t> memory_peak_bytes;  // memory.max_usage_in_bytes
};
CgroupV1Memory read_cgroup_v1_memory(const std::string &folder);

// Forks refused at pids.max (pids.events max) of a pids controller folder.
std::optional<std::uint64_t> read_cgroup_v1_pids_refused(const std::string &folder);

// Of a cpu controller folder (cpu.stat).
struct CgroupV1Throttling {
    std::optional<std::uint64_t> periods;       // nr_throttled
    std::optional<std::uint64_t> throttled_ns;  // throttled_time
};
CgroupV1Throttling read_cgroup_v1_throttling(const std::string &folder);

// Of a cpuacct controller folder: cpuacct.usage_user and cpuacct.usage_sys.
struct CgroupV1CpuTime {
    std::optional<std::uint64_t> user_ns;
    std::optional<std::uint64_t> system_ns;
};
CgroupV1CpuTime read_cgroup_v1_cpu_time(const std::string &folder);

// True when `folder` has the cpuacct files read_cgroup_v1_cpu_time reads.
bool has_cgroup_v1_cpu_time(const std::string &folder);

// Block I/O of a blkio controller folder, over every device
// (blkio.throttle.io_service_bytes_recursive, else blkio.throttle.io_service_bytes); zero
// when the file lists no device, nullopt when neither file is readable.
std::optional<BlockIoBytes> read_cgroup_v1_block_io(const std::string &folder);

// Starts a new memory peak (writes 0 into memory.max_usage_in_bytes); false when refused.
bool reset_cgroup_v1_memory_peak(const std::string &folder);

}  // namespace sbx::support
