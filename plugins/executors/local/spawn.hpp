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
    // The run's cgroup v2 folder, or -1: a warm run's target is made in it with
    // clone3(CLONE_INTO_CGROUP) where the kernel has that, and writes cgroup.procs otherwise.
    int cgroup_folder_fd = -1;
    std::vector<ResourceLimit> limits;
    // Start in the calling thread's warm sandbox when the run can (warm_sandbox.hpp).
    bool warm = true;
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

// A started run, whether its init was made for it (Target, below) or it runs in the
// calling thread's warm sandbox (warm_sandbox.hpp). Ending it ends everything it started.
class RunningTarget {
  public:
    RunningTarget() = default;
    virtual ~RunningTarget() = default;
    RunningTarget(const RunningTarget &) = delete;
    RunningTarget &operator=(const RunningTarget &) = delete;
    RunningTarget(RunningTarget &&) = delete;
    RunningTarget &operator=(RunningTarget &&) = delete;

    // Readable once the target has ended.
    [[nodiscard]] virtual int ended_fd() const = 0;
    [[nodiscard]] virtual Isolation isolation() const = 0;
    // The run is in a user namespace of its own (no root: the caller's ids mapped).
    [[nodiscard]] virtual bool user_namespace() const = 0;
    // SIGKILL to the target; everything it started goes with it.
    virtual void kill() noexcept = 0;
    // Blocks until the run has ended and nothing it started is left; then its status and
    // the CPU of the target and everything it started.
    virtual ExitInfo wait() = 0;
};

// A run with an init of its own. Owns the init process: the destructor kills and reaps it
// if nobody did.
class Target final : public RunningTarget {
  public:
    Target(pid_t pid, UniqueFd pidfd, Isolation isolation, bool user_namespace,
           std::unique_ptr<LaunchBlock> block);
    ~Target() override;
    Target(Target &&) = delete;
    Target &operator=(Target &&) = delete;
    Target(const Target &) = delete;
    Target &operator=(const Target &) = delete;

    // The init's pidfd: readable once the run (the init) has ended.
    [[nodiscard]] int ended_fd() const override { return pidfd_.get(); }
    [[nodiscard]] Isolation isolation() const override { return isolation_; }
    [[nodiscard]] bool user_namespace() const override { return user_namespace_; }
    // SIGKILL to the init (and, in process-group mode, to its group). In a PID namespace the
    // kernel then kills every other process in it.
    void kill() noexcept override;
    // Reaps the init. Throws when it was already reaped by someone else (a host that
    // ignores SIGCHLD).
    ExitInfo wait() override;

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
    std::unique_ptr<RunningTarget> target;  // empty when the run failed before or at execve
    bool warm = false;                      // started in the thread's warm sandbox
    // Made in its cgroup by clone3(CLONE_INTO_CGROUP), not moved there by a cgroup.procs write.
    bool cloned_into_cgroup = false;
    int failed_errno = 0;
    std::string failed_step;  // "execve", "chdir", ... when target is empty
};

// Starts the run in the calling thread's warm sandbox when it can, else with an init of its
// own. Throws sbx::Error only when no process could be created at all (clone failed); a
// target that failed to exec is a SpawnOutcome without a target.
SpawnOutcome spawn_target(const SpawnRequest &request);

// Starts the run with an init of its own (no warm sandbox).
SpawnOutcome spawn_cold(const SpawnRequest &request);

}  // namespace sbx::local
