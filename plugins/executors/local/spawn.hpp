// Starting the target: clone() of the run's init into fresh PID (and mount, and without root
// user) namespaces; the init starts the target as its child. Target owns the running init.
#pragma once

#include <sys/resource.h>
#include <sys/types.h>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <sbx/unique_fd.hpp>
#include "mount_view.hpp"

namespace sbx::local {

struct ResourceLimit {
    int resource;  // RLIMIT_*
    rlimit value;
};

// Everything the init and the target need, prepared by the host: they may not allocate.
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
    // The user namespace owning it when that is not ours (one a normal user made,
    // support::UserNetwork), or -1. Without root the run then gets its namespaces inside
    // that one instead of a new one: only there may it enter the network namespace.
    int netns_owner_fd = -1;
    // A detached mount (fsmount) the init attaches over `workdir` in a mount namespace of
    // the run's own, made private first so that nothing propagates to the host; or -1.
    int workspace_mount_fd = -1;
    // What the target sees of the filesystem (mount_view.hpp), and for `minimal` the host
    // paths it sees (parallel arrays).
    support::FilesystemMode filesystem = support::FilesystemMode::kHost;
    // The host paths shown at their own place (shown_paths.hpp): attached after the private
    // /tmp under `readonly`, beside the binds under `minimal`.
    std::vector<support::BindPath> shown;
    std::vector<const char *> bind_paths;
    std::vector<char> bind_writable;
    std::vector<int> cgroup_procs_fds;  // cgroup.procs files the target writes "0" into
    std::vector<ResourceLimit> limits;
};

// How the target's descendants are tied to the run.
enum class Isolation {
    kPidNamespace,  // the run's init is PID 1 of its own PID namespace
    kProcessGroup,  // fallback without namespaces: the init's session is killed at the end
};
const char *isolation_name(Isolation isolation);

// What wait4() reported once the run ended: the target's own status, and the CPU of the
// target and everything it started.
struct ExitInfo {
    int wait_status = 0;
    rusage usage{};
};

struct LaunchBlock;

// A started run. Owns the init process: the destructor kills and reaps it if nobody did.
class Target {
  public:
    Target(pid_t pid, UniqueFd pidfd, Isolation isolation, bool user_namespace,
           std::unique_ptr<LaunchBlock> block);
    ~Target();
    Target(Target &&other) noexcept;
    Target &operator=(Target &&) = delete;
    Target(const Target &) = delete;
    Target &operator=(const Target &) = delete;

    // Readable once the run (the init) has ended.
    [[nodiscard]] int pidfd() const { return pidfd_.get(); }
    [[nodiscard]] Isolation isolation() const { return isolation_; }
    // The run is in a user namespace of its own (no root: the caller's ids mapped).
    [[nodiscard]] bool user_namespace() const { return user_namespace_; }
    // SIGKILL to the init (and, in process-group mode, to its group). In a PID namespace the
    // kernel then kills every other process in it.
    void kill() noexcept;
    // Blocks until the run has ended and reaps the init. Throws when it was already reaped
    // by someone else (a host that ignores SIGCHLD).
    ExitInfo wait();

  private:
    pid_t pid_;
    UniqueFd pidfd_;
    Isolation isolation_;
    bool user_namespace_;
    bool reaped_ = false;
    // Stacks and report of the init: freed only after the init is reaped.
    std::unique_ptr<LaunchBlock> block_;
};

struct SpawnOutcome {
    std::optional<Target> target;  // empty when the run failed before or at execve
    int failed_errno = 0;
    std::string failed_step;  // "execve", "chdir", ... when target is empty
};

// Starts the run. Throws sbx::Error only when no process could be created at all (clone
// failed); a target that failed to exec is a SpawnOutcome without a target.
SpawnOutcome spawn_target(const SpawnRequest &request);

}  // namespace sbx::local
