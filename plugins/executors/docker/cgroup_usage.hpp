// CPU seconds, peak memory, block I/O and OOM kills of a container, read from its cgroup
// because the engine keeps no per-process figures: v1 cpuacct.usage_user/usage_sys,
// memory.max_usage_in_bytes and blkio.throttle.io_service_bytes_recursive, v2 cpu.stat,
// memory.peak and io.stat (block I/O of a pooled container only). For a pooled container the
// figures of one exec are a difference (CPU) and a peak reset before it (memory); for a container
// of its own, whose cgroup goes with it, they are read from a parent cgroup the container is
// created under.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sbx::docker {

struct CgroupFigures {
    double cpu_user_s = 0;
    double cpu_sys_s = 0;
    std::optional<std::uint64_t> memory_peak_bytes;  // unknown when unreadable
    // Bytes the cgroup's processes read from and wrote to block devices (bios issued), over
    // every device; unknown when unreadable.
    std::optional<std::uint64_t> disk_read_bytes;
    std::optional<std::uint64_t> disk_write_bytes;
};

class CgroupUsage {
  public:
    CgroupUsage() = default;
    // The cgroups of process `pid` (a container's main process), from /proc/PID/cgroup.
    static CgroupUsage of_process(long pid);
    // The cgroup at `path` below each hierarchy's root (a HostConfig.CgroupParent).
    static CgroupUsage at_path(const std::string &path);

    // "cgroup_v1", "cgroup_v2", or "" when no CPU figures can be read.
    [[nodiscard]] const std::string &source() const { return source_; }
    [[nodiscard]] CgroupFigures read() const;
    // Starts a new memory peak; false when the kernel cannot (v2 before Linux 6.12).
    bool reset_memory_peak() const;
    // The memory cgroup's OOM-kill count (v1 memory.oom_control, v2 memory.events:
    // "oom_kill N"), nullopt when unreadable. Rationale: the engine sets State.OOMKilled only
    // when a container's main process dies of it, so an exec killed by the OOM killer in a
    // pooled container leaves no trace in the API; the cgroup's counter does.
    [[nodiscard]] std::optional<std::uint64_t> oom_kills() const;

  private:
    std::string source_;
    std::string cpu_dir_;     // cpuacct (v1) or the unified cgroup (v2)
    std::string memory_dir_;  // memory (v1) or the unified cgroup (v2)
    // blkio (v1) or the unified cgroup (v2) of a live container; "" for a parent cgroup
    // (at_path), whose block I/O counts do not keep a removed child's (measured on v1).
    std::string blkio_dir_;
};

// The CPU time and block I/O between two readings of one cgroup (never negative).
CgroupFigures cpu_between(const CgroupFigures &before, const CgroupFigures &after);

// A parent cgroup for one container of its own ("/sbx-docker/<host pid>-<n>"), created by
// the runtime when the container starts and removed (every hierarchy) when this goes —
// after the container, whose cgroup must be gone first. The sweep removes those of dead
// hosts.
class ParentCgroup {
  public:
    ParentCgroup();
    ~ParentCgroup();
    ParentCgroup(const ParentCgroup &) = delete;
    ParentCgroup &operator=(const ParentCgroup &) = delete;
    [[nodiscard]] const std::string &path() const { return path_; }

  private:
    std::string path_;
};

// The folder under each hierarchy's root that holds the ParentCgroups.
inline constexpr const char kParentCgroupFolder[] = "/sbx-docker";

// Removes the empty parent cgroups of dead hosts; returns what it removed, one line each.
std::vector<std::string> sweep_parent_cgroups(bool dry_run);

}  // namespace sbx::docker
