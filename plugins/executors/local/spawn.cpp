// clone() of the run's init (run_init.cpp) and the host's side of its start: which
// namespaces the run gets, the handshake until the target has exec'd, and the Target that
// owns the init until it is reaped.
//
// Namespaces, best first, the first that the kernel grants being kept for later runs:
//   1. PID (+ mount) namespaces made directly: root, or CAP_SYS_ADMIN;
//   2. the same inside a new user namespace mapping the caller's ids: any user, where
//      unprivileged user namespaces are enabled (most distributions); or inside the user
//      namespace owning the run's network namespace, when a normal user made that one;
//   3. no namespace: the init leads a session that is killed at the end. A descendant that
//      calls setsid() escapes it; a filesystem view cannot be built (the run fails saying so).
// Why PID namespaces: when the init ends, the kernel kills every other process in the
// namespace (setsid'ed or double-forked ones included) and wait4 on the init returns only
// after they are gone, so no run leaves processes behind.
#include "spawn.hpp"

#include <linux/futex.h>
#include <sched.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <utility>

#include "launch_block.hpp"
#include "support/block_all_signals.hpp"
#include "support/sys_error.hpp"

namespace sbx::local {
namespace {

enum class Tier : int { kNamespaces, kUserNamespace, kProcessGroup };

// The best tier the kernel granted so far; later runs start there.
std::atomic<int> g_tier{static_cast<int>(Tier::kNamespaces)};

bool refused_by_kernel(int error) {
    // EPERM: no CAP_SYS_ADMIN (or user namespaces off). EINVAL/ENOSPC/EUSERS: namespaces
    // disabled or nested too deep. EACCES: a security module said no.
    return error == EPERM || error == EINVAL || error == ENOSPC || error == EUSERS ||
           error == EACCES;
}

const char *tier_text(Tier tier) {
    return tier == Tier::kUserNamespace
               ? "runs get PID and mount namespaces inside a user namespace of their own"
               : "targets run in their own session instead, and descendants that leave it "
                 "(setsid) may outlive a run";
}

// Without root, a run in a network namespace that a normal user made (support::UserNetwork)
// gets its namespaces inside the user namespace owning it, not in a new one: setns() into
// a network namespace needs CAP_SYS_ADMIN over its owner, which only processes inside it
// have. A vfork child enters the owner, where its creator holds every capability, and
// clones the init from there as our child (CLONE_PARENT): its PID and mount namespaces are
// the owner's, and the owner already maps our uid and gid to themselves.
struct CloneInOwner {
    LaunchBlock *block = nullptr;
    int owner_fd = -1;
    int flags = 0;
    int *pidfd = nullptr;
    pid_t pid = -1;
    int error = 0;
};

int clone_in_owner(void *argument) {
    auto &request = *static_cast<CloneInOwner *>(argument);
    if (::setns(request.owner_fd, CLONE_NEWUSER) != 0) {
        request.error = errno;
        return 1;
    }
    request.pid = ::clone(run_init, request.block->init_stack.top(), request.flags | CLONE_PARENT,
                          request.block, request.pidfd, nullptr, &request.block->phase);
    request.error = request.pid < 0 ? errno : 0;
    return 0;
}

bool joins_owner(const LaunchBlock &block, Tier tier) {
    return tier == Tier::kUserNamespace && block.request->netns_owner_fd >= 0;
}

// clone() of the init for `tier`. Returns the pid, or -1 with `error` set.
pid_t clone_init(LaunchBlock &block, const MountView &view, Tier tier, int &pidfd, int &error) {
    int flags = CLONE_VM | CLONE_PIDFD | CLONE_CHILD_CLEARTID | SIGCHLD;
    const bool join = joins_owner(block, tier);
    block.pid_namespace = tier != Tier::kProcessGroup;
    block.id_maps = tier == Tier::kUserNamespace && !join ? &support::caller_id_maps() : nullptr;
    block.mounts = nullptr;
    if (block.pid_namespace) {
        flags |= CLONE_NEWPID;
        if (needs_mount_namespace(view)) {
            flags |= CLONE_NEWNS;
            block.mounts = &view;
        }
    }
    if (tier == Tier::kUserNamespace && !join) {
        flags |= CLONE_NEWUSER;
    }
    block.phase = kPhaseLaunching;
    if (join) {
        CloneInOwner request{&block, block.request->netns_owner_fd, flags, &pidfd};
        const support::ChildStack stack;
        pid_t helper;
        {
            support::BlockAllSignals blocked;
            // CLONE_FILES: the init's pidfd is made in the helper's table, which must be ours.
            helper = ::clone(clone_in_owner, stack.top(),
                             CLONE_VM | CLONE_VFORK | CLONE_FILES | SIGCHLD, &request);
            error = errno;
        }
        if (helper < 0) {
            return -1;
        }
        int status = 0;
        while (::waitpid(helper, &status, __WALL) < 0 && errno == EINTR) {
        }
        error = request.error;
        return request.pid;
    }
    pid_t pid;
    {
        support::BlockAllSignals blocked;
        pid =
            ::clone(run_init, block.init_stack.top(), flags, &block, &pidfd, nullptr, &block.phase);
        error = errno;  // meaningful only when pid < 0
    }
    return pid;
}

// Waits until the init reported the target's start or failure, or ended (the kernel clears
// the word and wakes us: CLONE_CHILD_CLEARTID).
void wait_for_report(LaunchBlock &block) {
    while (__atomic_load_n(&block.phase, __ATOMIC_ACQUIRE) == kPhaseLaunching) {
        ::syscall(SYS_futex, &block.phase, FUTEX_WAIT, kPhaseLaunching, nullptr, nullptr, 0);
    }
}

}  // namespace

const char *isolation_name(Isolation isolation) {
    return isolation == Isolation::kPidNamespace ? "pid_namespace" : "process_group";
}

Target::Target(pid_t pid, UniqueFd pidfd, Isolation isolation, bool user_namespace,
               std::unique_ptr<LaunchBlock> block)
    : pid_(pid),
      pidfd_(std::move(pidfd)),
      isolation_(isolation),
      user_namespace_(user_namespace),
      block_(std::move(block)) {}

Target::Target(Target &&other) noexcept
    : pid_(other.pid_),
      pidfd_(std::move(other.pidfd_)),
      isolation_(other.isolation_),
      user_namespace_(other.user_namespace_),
      reaped_(other.reaped_),
      block_(std::move(other.block_)) {
    other.reaped_ = true;
}

Target::~Target() {
    if (reaped_) {
        return;
    }
    kill();
    try {
        (void)wait();
    } catch (...) {  // reaped elsewhere, so it has ended: nothing runs on the block
    }
}

void Target::kill() noexcept {
    if (reaped_) {
        return;
    }
    if (::syscall(SYS_pidfd_send_signal, pidfd_.get(), SIGKILL, nullptr, 0) != 0) {
        ::kill(pid_, SIGKILL);
    }
    if (isolation_ == Isolation::kProcessGroup) {
        ::kill(-pid_, SIGKILL);
    }
}

ExitInfo Target::wait() {
    if (isolation_ == Isolation::kProcessGroup) {
        // Without a PID namespace the session may outlive the init. Kill its group while the
        // unreaped init still pins its id: once reaped, the id may name another group.
        siginfo_t ended{};
        while (::waitid(P_PID, static_cast<id_t>(pid_), &ended, WEXITED | WNOWAIT | __WALL) != 0 &&
               errno == EINTR) {
        }
        ::kill(-pid_, SIGKILL);
    }
    ExitInfo info;
    pid_t reaped;
    do {
        reaped = ::wait4(pid_, &info.wait_status, __WALL, &info.usage);
    } while (reaped < 0 && errno == EINTR);
    if (reaped != pid_) {
        support::throw_system_error("wait4 on the run's init (pid " + std::to_string(pid_) +
                                        "): does the host ignore SIGCHLD or reap children itself?",
                                    errno);
    }
    reaped_ = true;
    // The init's rusage holds the target and everything it reaped (CPU summed, RSS the
    // largest, but also the init's own, which is the host's memory): take the status and
    // the RSS that the init recorded for the target.
    if (block_ && block_->target_ended) {
        info.wait_status = block_->target_wait_status;
        info.usage.ru_maxrss = block_->max_rss_kb;
    }
    return info;
}

SpawnOutcome spawn_target(const SpawnRequest &request) {
    auto block = std::make_unique<LaunchBlock>();
    block->request = &request;
    block->limits = request.limits.data();
    block->limit_count = request.limits.size();
    block->cgroup_fds = request.cgroup_procs_fds.data();
    block->cgroup_fd_count = request.cgroup_procs_fds.size();
    MountView view;
    view.mode = request.filesystem;
    view.workdir = request.workdir;
    view.workspace_mount_fd = request.workspace_mount_fd;
    view.fresh_proc = request.filesystem != support::FilesystemMode::kHost;
    std::vector<const char *> shown_paths;
    std::vector<char> shown_writable;
    for (const support::BindPath &path : request.shown) {
        shown_paths.push_back(path.path.c_str());
        shown_writable.push_back(path.writable ? 1 : 0);
    }
    std::vector<const char *> bind_paths = request.bind_paths;
    std::vector<char> bind_writable = request.bind_writable;
    if (request.filesystem == support::FilesystemMode::kMinimal) {
        bind_paths.insert(bind_paths.end(), shown_paths.begin(), shown_paths.end());
        bind_writable.insert(bind_writable.end(), shown_writable.begin(), shown_writable.end());
    } else if (request.filesystem == support::FilesystemMode::kReadonly) {
        view.shown_paths = shown_paths.data();
        view.shown_writable = shown_writable.data();
        view.shown_count = shown_paths.size();
    }
    view.bind_paths = bind_paths.data();
    view.bind_writable = bind_writable.data();
    view.bind_count = bind_paths.size();

    int pidfd = -1;
    int error = 0;
    auto tier = static_cast<Tier>(g_tier.load());
    pid_t pid = -1;
    SpawnOutcome outcome;
    for (;;) {
        if (tier == Tier::kProcessGroup && needs_mount_namespace(view)) {
            // Nothing to build the view in: refuse rather than run the target unconfined.
            outcome.failed_errno = EPERM;
            outcome.failed_step = "make a mount namespace (no CAP_SYS_ADMIN and no user namespace)";
            return outcome;
        }
        pid = clone_init(*block, view, tier, pidfd, error);
        // A refused join says nothing about what later runs get: no fallback.
        if (pid >= 0 || !refused_by_kernel(error) || tier == Tier::kProcessGroup ||
            joins_owner(*block, tier)) {
            break;
        }
        const auto next = static_cast<Tier>(static_cast<int>(tier) + 1);
        int expected = static_cast<int>(tier);
        if (g_tier.compare_exchange_strong(expected, static_cast<int>(next))) {
            host::log(next == Tier::kProcessGroup ? SBX_LOG_WARN : SBX_LOG_INFO,
                      std::string("cannot create namespaces for a run (") +
                          support::errno_text(error) + "); " + tier_text(next));
        }
        tier = next;
    }
    if (pid < 0) {
        support::throw_system_error(
            joins_owner(*block, tier)
                ? "cannot start the run's init in the user namespace owning its network "
                  "namespace: setns and clone"
                : "cannot start the run's init: clone",
            error);
    }
    const Isolation isolation =
        block->pid_namespace ? Isolation::kPidNamespace : Isolation::kProcessGroup;
    const bool user_namespace = tier == Tier::kUserNamespace;

    wait_for_report(*block);
    LaunchBlock &report = *block;
    Target started(pid, UniqueFd(pidfd), isolation, user_namespace, std::move(block));
    if (!report.target_started) {
        const ExitInfo ended = started.wait();
        if (report.failed_step != kNoFailure) {
            outcome.failed_errno = report.failed_errno;
            outcome.failed_step = child_step_name(report.failed_step);
        } else {
            outcome.failed_errno = ECHILD;
            outcome.failed_step = WIFSIGNALED(ended.wait_status) ? "the init was killed" : "start";
        }
        return outcome;
    }
    outcome.target.emplace(std::move(started));
    return outcome;
}

}  // namespace sbx::local
