// A run's cold start: clone() of an init made for the run (run_init.cpp), the handshake
// until the target has exec'd, and the Target that owns the init until it is reaped. Most
// runs start warm instead (warm_sandbox.hpp); this path takes the rest: the first run of a
// view, runs in a network namespace, and runs without namespaces.
//
// Namespaces as namespace_tier.hpp says; without root, a run in a network namespace that a
// normal user made gets them inside the user namespace owning that one. With no namespace
// at all, a descendant that calls setsid() escapes the init's session, and a filesystem
// view cannot be built (the run fails saying so).
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

#include <cerrno>
#include <cstdint>
#include <utility>

#include "launch_block.hpp"
#include "namespace_tier.hpp"
#include "support/block_all_signals.hpp"
#include "support/sys_error.hpp"
#include "view_plan.hpp"
#include "warm_sandbox.hpp"

namespace sbx::local {
namespace {

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
    if (WarmSandbox *sandbox = WarmSandbox::for_request(request)) {
        std::optional<SpawnOutcome> warm = sandbox->start(request);
        if (warm) {
            return std::move(*warm);
        }
        WarmSandbox::drop();  // the sandbox broke outside the target: this run starts cold
    }
    return spawn_cold(request);
}

SpawnOutcome spawn_cold(const SpawnRequest &request) {
    auto block = std::make_unique<LaunchBlock>();
    block->request = &request;
    block->limits = request.limits.data();
    block->limit_count = request.limits.size();
    block->cgroup_fds = request.cgroup_procs_fds.data();
    block->cgroup_fd_count = request.cgroup_procs_fds.size();
    const ViewPlan plan(request.filesystem, request.workdir, request.workspace_mount_fd,
                        request.shown, request.bind_paths, request.bind_writable);
    const MountView &view = plan.view();

    int pidfd = -1;
    int error = 0;
    Tier tier = current_tier();
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
        tier = step_down_from(tier, error);
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
    auto started =
        std::make_unique<Target>(pid, UniqueFd(pidfd), isolation, user_namespace, std::move(block));
    if (!report.target_started) {
        const ExitInfo ended = started->wait();
        if (report.failed_step != kNoFailure) {
            outcome.failed_errno = report.failed_errno;
            outcome.failed_step = child_step_name(report.failed_step);
        } else {
            outcome.failed_errno = ECHILD;
            outcome.failed_step = WIFSIGNALED(ended.wait_status) ? "the init was killed" : "start";
        }
        return outcome;
    }
    outcome.target = std::move(started);
    return outcome;
}

}  // namespace sbx::local
