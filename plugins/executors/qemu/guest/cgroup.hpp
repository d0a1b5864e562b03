// A cgroup v2 folder for one job: its limits, what the kernel counted, and a kill that
// reaches every process the command left behind.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>

namespace sbx::guest {

struct JobLimits {
    std::uint64_t memory_bytes = 0;  // memory.max, no swap
    std::uint64_t pids = 0;          // pids.max
    double cpu_cores = 0;            // cpu.max quota per 100 ms period
};

struct JobCounters {
    std::uint64_t oom_kills = 0;     // memory.events oom_kill
    std::uint64_t pids_refused = 0;  // pids.events max
    std::uint64_t user_usec = 0;     // cpu.stat
    std::uint64_t system_usec = 0;
    std::uint64_t peak_bytes = 0;  // memory.peak
    bool cpu_throttled = false;    // cpu.stat nr_throttled > 0
};

class JobCgroup {
  public:
    // Creates /sys/fs/cgroup/<name> with `limits`; an unusable cgroup tree leaves path()
    // empty and every call a no-op (the job then runs with rlimits only).
    JobCgroup(const std::string &name, const JobLimits &limits);
    ~JobCgroup();
    JobCgroup(const JobCgroup &) = delete;
    JobCgroup &operator=(const JobCgroup &) = delete;

    [[nodiscard]] const std::string &path() const { return path_; }
    // Forks a child that starts inside the group: clone3 with CLONE_INTO_CGROUP (Linux 5.7),
    // else fork() and a move in by the child. Moving a process costs a wait for the whole
    // tree's writers (an RCU grace period without favordynmods), about 1 ms under
    // emulation even with it; being born inside costs nothing. fork()'s return values.
    [[nodiscard]] pid_t fork_into() const;
    // SIGKILLs every process in the group.
    void kill_all() const;
    [[nodiscard]] JobCounters counters() const;

  private:
    std::string path_;
};

}  // namespace sbx::guest
