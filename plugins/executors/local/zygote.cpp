// The warm sandbox's zygote (zygote.hpp). Its set-up and each run's preparation happen while
// the host waits on the block, so libc is safe there; from a target's start to the end of
// its run, and from the run's end until the next, the host runs beside it, and only raw
// system calls are made (raw_syscall.hpp).
//
// Why one PID namespace for all of a worker's runs, not one per run: a new PID namespace and
// the /proc that shows it cost about 0.15 ms a run here, a quarter of a whole run of
// /bin/true. Runs stay apart all the same: when the target has ended, the zygote kills every
// other process in the namespace (kill(-1) from its PID 1 reaches all but itself) and reaps
// them before the host hears of the end, so the next run finds nothing of this one, as it
// would with a namespace of its own. Why the mount namespace is watched: a target with
// CAP_SYS_ADMIN may mount or unmount in it; such a run retires the sandbox.
#include "zygote.hpp"

#include <fcntl.h>
#include <linux/futex.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

#include "clone_into_cgroup.hpp"
#include "raw_syscall.hpp"
#include "support/user_namespace.hpp"

namespace sbx::local {
namespace {

using init_steps::give_up;
using init_steps::publish;

SBX_BESIDE_THE_HOST void wait_for_run(ZygoteBlock *zygote) {
    while (__atomic_exchange_n(&zygote->command, kZygoteIdle, __ATOMIC_ACQ_REL) != kZygoteRun) {
        (void)raw_syscall(SYS_futex, reinterpret_cast<long>(&zygote->command), FUTEX_WAIT,
                          kZygoteIdle);
    }
}

// Signals sent to the sandbox between runs were meant for no run.
SBX_BESIDE_THE_HOST void discard_pending_signals() {
    const unsigned long all = ~0UL;
    const timespec now{};
    siginfo_t info{};
    while (raw_syscall(SYS_rt_sigtimedwait, reinterpret_cast<long>(&all),
                       reinterpret_cast<long>(&info), reinterpret_cast<long>(&now),
                       sizeof(all)) > 0) {
    }
}

// True when the mount namespace changed since the last call (the kernel flags the open
// mountinfo file with POLLPRI on every mount or unmount, and the poll clears it).
SBX_BESIDE_THE_HOST bool mounts_changed(int mounts_fd) {
    pollfd watched{mounts_fd, POLLPRI, 0};
    const timespec now{};
    return raw_syscall(SYS_ppoll, reinterpret_cast<long>(&watched), 1, reinterpret_cast<long>(&now),
                       0) > 0 &&
           (watched.revents & (POLLPRI | POLLERR)) != 0;
}

// Kills and reaps whatever the run left in the namespace (the target has been reaped, or
// failed to start); returns once the zygote has no child.
SBX_BESIDE_THE_HOST void end_the_rest(LaunchBlock *block) {
    for (bool killed = false;;) {
        int status = 0;
        rusage usage{};
        const long reaped =
            raw_syscall(SYS_wait4, -1, reinterpret_cast<long>(&status),
                        killed ? __WALL : (WNOHANG | __WALL), reinterpret_cast<long>(&usage));
        if (reaped > 0) {
            init_steps::record_usage(block, usage);
            killed = false;  // a process that forked before it died: kill again
        } else if (reaped == 0) {
            (void)raw_syscall(SYS_kill, -1, SIGKILL);  // all of the namespace but us
            killed = true;
        } else if (reaped != -EINTR) {
            return;  // -ECHILD: nothing is left
        }
    }
}

SBX_BESIDE_THE_HOST bool has_scratch(const ZygoteBlock *zygote) {
    return zygote->view != nullptr && zygote->view->mode != support::FilesystemMode::kHost;
}

// New /tmp and /dev/shm, for a run after one that left something there.
bool renew(ZygoteBlock *zygote) {
    return renew_scratch(zygote->scratch) &&
           scratch_is_clean(zygote->scratch, zygote->scratch_attributes, true);
}

// Makes the target (its first steps: init_steps::start_target), inside the run's cgroup v2
// folder from the start where the kernel can (clone_into_cgroup.hpp), else to move there
// itself through cgroup.procs. Returns its PID, or -1 with errno set.
pid_t make_target(LaunchBlock *block, int *pidfd) {
    const int folder = block->request->cgroup_folder_fd;
    block->cloned_into_cgroup = folder >= 0;
    if (folder >= 0) {
        const long made = clone_vfork_into_cgroup(init_steps::start_target, block,
                                                  block->target_stack, folder, pidfd);
        if (made > 0) {
            return static_cast<pid_t>(made);
        }
        block->cloned_into_cgroup = false;  // the old way says what is wrong, if anything
    }
    return ::clone(init_steps::start_target, block->target_stack.top(),
                   CLONE_VM | CLONE_VFORK | CLONE_PIDFD | SIGCHLD, block, pidfd);
}

// Starts the run and serves it to its end. `scratch_used`: the last run left something in
// /tmp or /dev/shm.
SBX_BESIDE_THE_HOST void serve_one_run(ZygoteBlock *zygote, bool scratch_used) {
    LaunchBlock *block = &zygote->launch;
    const SpawnRequest &request = *block->request;
    discard_pending_signals();
    if (scratch_used && !renew(zygote)) {
        give_up(block, kFilesystemView);
    }
    const bool tmpfs = request.workspace_mount_fd >= 0;
    if (tmpfs && ::move_mount(request.workspace_mount_fd, "", AT_FDCWD, request.workdir,
                              MOVE_MOUNT_F_EMPTY_PATH) != 0) {
        give_up(block, kMountWorkspace);
    }
    if (zygote->mounts_fd >= 0) {
        (void)mounts_changed(zygote->mounts_fd);  // our own changes, just made
    }
    int pidfd = -1;
    const pid_t target = make_target(block, &pidfd);
    if (target < 0) {
        give_up(block, kStartTarget);
    }
    zygote->target_pidfd = pidfd;
    // From here the host runs beside us: raw system calls only.
    if (block->failed_step == kNoFailure) {
        block->target_started = true;
        publish(block, kPhaseReported);
        init_steps::serve_until_target_ends(block, target);
    } else {
        publish(block, kPhaseReported);
    }
    end_the_rest(block);
    if (zygote->mounts_fd >= 0 && mounts_changed(zygote->mounts_fd)) {
        zygote->retired = true;
    }
    if (tmpfs &&
        raw_syscall(SYS_umount2, reinterpret_cast<long>(request.workdir), MNT_DETACH) != 0) {
        zygote->retired = true;
    }
    publish(block, kPhaseIdle);
}

// Whether the run just served left /tmp and /dev/shm as they were, checked while the host
// goes on with its result (a new tmpfs is made only when the next run comes: its unmount
// waits for the kernel's RCU grace period). Nothing of the run is left to write there.
SBX_BESIDE_THE_HOST bool scratch_was_used(ZygoteBlock *zygote) {
    return has_scratch(zygote) &&
           !scratch_is_clean(zygote->scratch, zygote->scratch_attributes, false);
}

}  // namespace

SBX_BESIDE_THE_HOST int run_zygote(void *argument) {
    auto *zygote = static_cast<ZygoteBlock *>(argument);
    LaunchBlock *block = &zygote->launch;
    init_steps::default_signal_actions();
    // The zygote and its namespace end with the host's worker thread that made it, even when
    // the host is killed: no sandbox outlives its host.
    (void)::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (block->id_maps != nullptr && !support::write_id_maps(*block->id_maps)) {
        give_up(block, kUserNamespace);
    }
    if (zygote->view != nullptr) {
        int step = kNoFailure;
        if (!build_mount_view(*zygote->view, step)) {
            give_up(block, step);
        }
        zygote->mounts_fd = ::open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);
        if (zygote->mounts_fd < 0) {
            give_up(block, kFilesystemView);
        }
        if (has_scratch(zygote)) {
            (void)scratch_is_clean(zygote->scratch, zygote->scratch_attributes, true);
        }
    }
    publish(block, kPhaseIdle);
    for (bool scratch_used = false;;) {
        wait_for_run(zygote);
        serve_one_run(zygote, scratch_used);
        scratch_used = scratch_was_used(zygote);
    }
}

}  // namespace sbx::local
