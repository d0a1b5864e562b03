// Starting the target: clone() with CLONE_VM|CLONE_VFORK into a fresh PID namespace, where
// it is PID 1, so that its end takes every process it started with it.
#pragma once

#include <sys/resource.h>
#include <sys/types.h>

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "unique_fd.hpp"

namespace sbx::local {

struct ResourceLimit {
    int resource;  // RLIMIT_*
    rlimit value;
};

// Everything the child needs, prepared by the parent: the child may not allocate.
struct SpawnRequest {
    const char *program = nullptr;  // resolved path for execve
    char *const *argv = nullptr;
    char *const *envp = nullptr;
    const char *workdir = nullptr;
    int stdin_fd = -1;  // all >= 3
    int stdout_fd = -1;
    int stderr_fd = -1;
    // A network namespace (an open /run/netns/NAME) to setns() into before exec, or -1.
    int netns_fd = -1;
    // A detached mount (fsmount) the child attaches over `workdir` in a mount namespace of
    // its own, made private first so that nothing propagates to the host; or -1.
    int workspace_mount_fd = -1;
    std::vector<int> cgroup_procs_fds;  // cgroup.procs files the child writes "0" into
    std::vector<ResourceLimit> limits;
};

// How the target's descendants are tied to it.
enum class Isolation {
    kPidNamespace,  // the target is PID 1 of its own PID namespace
    kProcessGroup,  // fallback without CAP_SYS_ADMIN: setsid(), the group is killed at the end
};
const char *isolation_name(Isolation isolation);

// What wait4() reported once the target was reaped.
struct ExitInfo {
    int wait_status = 0;
    rusage usage{};
};

// A started target. Owns the process: the destructor kills and reaps it if nobody did.
class Target {
  public:
    Target(pid_t pid, UniqueFd pidfd, Isolation isolation)
        : pid_(pid), pidfd_(std::move(pidfd)), isolation_(isolation) {}
    ~Target();
    Target(Target &&other) noexcept;
    Target &operator=(Target &&) = delete;
    Target(const Target &) = delete;
    Target &operator=(const Target &) = delete;

    [[nodiscard]] int pidfd() const { return pidfd_.get(); }
    [[nodiscard]] Isolation isolation() const { return isolation_; }
    // SIGKILL to the target (and, in process-group mode, to its group). In a PID namespace
    // the kernel then kills every other process in it.
    void kill() noexcept;
    // Blocks until the target has ended and reaps it. Throws when it was already reaped by
    // someone else (a host that ignores SIGCHLD).
    ExitInfo wait();

  private:
    pid_t pid_;
    UniqueFd pidfd_;
    Isolation isolation_;
    bool reaped_ = false;
};

struct SpawnOutcome {
    std::optional<Target> target;  // empty when the child failed before or at execve
    int failed_errno = 0;
    std::string failed_step;  // "execve", "chdir", ... when target is empty
};

// Starts the target. Throws sbx::Error only when no child could be created at all
// (clone failed); a child that failed to exec is a SpawnOutcome without a target.
SpawnOutcome spawn_target(const SpawnRequest &request);

}  // namespace sbx::local
