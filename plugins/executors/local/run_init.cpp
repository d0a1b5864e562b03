// The run's init and the target's first steps: raw system calls only, on stacks of their
// own, in memory shared with the host (clone(CLONE_VM)), like glibc's posix_spawn child.
//
// Why an init: the kernel drops signals that a process in a PID namespace sends to the
// namespace's PID 1 when PID 1 has no handler for them. A target that was PID 1 itself
// survived its own raise(SIGSEGV), kill(getpid(), SIGTERM) and SIGPIPE, and abort() ended it
// as SIGSEGV: the sandbox hid exactly the crashes it is there to find. So PID 1 is this init
// and the target is its child, with default signal dispositions and an empty mask: every
// status is what a native run gives. The init reaps everything, forwards termination signals
// to the target, records the target's end, and exits once the target has ended; the kernel
// then kills whatever the target left in the namespace, before the host's wait returns.
//
// Why the init shares our memory instead of being a fork of the host: no copy of the host's
// page tables per run (fork takes the host's mmap lock, which serialises worker threads), and
// no second exec. Why the init never joins the run's cgroups: the OOM killer kills every
// process that shares the victim's memory, and that would be the host. The target joins them
// between its clone and its exec, when the kernel's OOM killer skips it (a vfork child).
#include <fcntl.h>
#include <linux/futex.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

#include "launch_block.hpp"
#include "raw_syscall.hpp"

namespace sbx::local {

[[noreturn]] void init_steps::give_up(LaunchBlock *block, int step) {
    block->failed_errno = errno;
    block->failed_step = step;
    _exit(127);
}

namespace {

using init_steps::give_up;

// Places `fd` on `target`. dup2 onto itself would keep close-on-exec, so that case clears it.
bool place_fd(int fd, int target) {
    if (fd == target) {
        return ::fcntl(fd, F_SETFD, 0) == 0;
    }
    return ::dup2(fd, target) == target;
}

}  // namespace

namespace init_steps {

void default_signal_actions() {
    struct sigaction default_action {};
    default_action.sa_handler = SIG_DFL;
    for (int signal_number = 1; signal_number < NSIG; ++signal_number) {
        (void)::sigaction(signal_number, &default_action, nullptr);  // EINVAL for KILL/STOP
    }
}

// The target, a vfork child of the init: the init resumes once it has exec'd or given up.
int start_target(void *argument) {
    auto *block = static_cast<LaunchBlock *>(argument);
    const SpawnRequest &request = *block->request;
    if (!block->pid_namespace) {
        // Without a PID namespace nothing else ends the target with the init.
        (void)::prctl(PR_SET_PDEATHSIG, SIGKILL);
    }
    for (std::size_t i = 0; !block->cloned_into_cgroup && i < block->cgroup_fd_count; ++i) {
        // Joined before execve, so everything the target does is charged to the run.
        if (::write(block->cgroup_fds[i], "0", 1) != 1) {  // "0": the writing process
            give_up(block, kJoinCgroup);
        }
    }
    for (std::size_t i = 0; i < block->limit_count; ++i) {
        const ResourceLimit &limit = block->limits[i];
        if (::setrlimit(static_cast<__rlimit_resource_t>(limit.resource), &limit.value) != 0) {
            give_up(block, kSetRlimit);
        }
    }
    if (::chdir(request.workdir) != 0) {
        give_up(block, kChdir);
    }
    if (!place_fd(request.stdin_fd, 0) || !place_fd(request.stdout_fd, 1) ||
        !place_fd(request.stderr_fd, 2)) {
        give_up(block, kStdio);
    }
    // Whatever the host left open without close-on-exec stays out of the target.
    (void)::close_range(3, ~0U, 0);
    sigset_t empty;
    ::sigemptyset(&empty);
    ::sigprocmask(SIG_SETMASK, &empty, nullptr);
    ::execve(request.program, request.argv, request.envp);
    give_up(block, kExec);
}

// Tells the host what happened (the target started, or why it did not; the run ended) and
// wakes it. Once the host runs beside us: raw system calls only (raw_syscall.hpp says why).
SBX_BESIDE_THE_HOST void publish(LaunchBlock *block, pid_t phase) {
    __atomic_store_n(&block->phase, phase, __ATOMIC_RELEASE);
    (void)raw_syscall(SYS_futex, reinterpret_cast<long>(&block->phase), FUTEX_WAKE, 1);
}

namespace {

long microseconds(const timeval &time) {
    return time.tv_sec * 1000000L + time.tv_usec;
}

}  // namespace

SBX_BESIDE_THE_HOST void record_usage(LaunchBlock *block, const rusage &usage) {
    if (usage.ru_maxrss > block->max_rss_kb) {
        block->max_rss_kb = usage.ru_maxrss;
    }
    block->cpu_user_us = block->cpu_user_us + microseconds(usage.ru_utime);
    block->cpu_sys_us = block->cpu_sys_us + microseconds(usage.ru_stime);
    block->in_blocks = block->in_blocks + usage.ru_inblock;
    block->out_blocks = block->out_blocks + usage.ru_oublock;
}

// Reaps every ended child; true once the target was among them.
SBX_BESIDE_THE_HOST bool reap_children(LaunchBlock *block, pid_t target) {
    bool target_ended = false;
    for (;;) {
        int status = 0;
        rusage usage{};
        const auto reaped =
            static_cast<pid_t>(raw_syscall(SYS_wait4, -1, reinterpret_cast<long>(&status),
                                           WNOHANG | __WALL, reinterpret_cast<long>(&usage)));
        if (reaped <= 0) {
            return target_ended;
        }
        record_usage(block, usage);
        if (reaped == target) {
            block->target_wait_status = status;
            block->target_ended = true;
            target_ended = true;
        }
    }
}

SBX_BESIDE_THE_HOST void serve_until_target_ends(LaunchBlock *block, pid_t target) {
    const unsigned long all = ~0UL;  // the kernel's sigset: one bit per signal 1..64
    for (;;) {
        siginfo_t info{};
        const long signal_number = raw_syscall(SYS_rt_sigtimedwait, reinterpret_cast<long>(&all),
                                               reinterpret_cast<long>(&info), 0, sizeof(all));
        if (signal_number == SIGCHLD) {
            if (reap_children(block, target)) {
                return;
            }
        } else if (signal_number > 0) {
            // SIGTERM, SIGINT, SIGHUP, ... sent to the run: they are meant for the target.
            (void)raw_syscall(SYS_kill, target, signal_number);
        }
    }
}

}  // namespace init_steps

namespace {

[[noreturn]] SBX_BESIDE_THE_HOST void end_init(int code) {
    for (;;) {
        (void)raw_syscall(SYS_exit_group, code);
    }
}

}  // namespace

using init_steps::publish;
using init_steps::reap_children;

int run_init(void *argument) {
    auto *block = static_cast<LaunchBlock *>(argument);
    const SpawnRequest &request = *block->request;

    // Every signal stays blocked (as the host blocked them for the clone) and is taken with
    // sigwaitinfo below; the actions go back to default, for the target to inherit.
    init_steps::default_signal_actions();
    // If the host dies (even by SIGKILL) the init dies with it, and with the init its whole
    // PID namespace: a crashed host leaves no run behind. The signal fires when the spawning
    // *thread* exits, so runs must be started from threads that outlive them.
    (void)::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (block->id_maps != nullptr && !support::write_id_maps(*block->id_maps)) {
        give_up(block, kUserNamespace);
    }
    // Only this process moves: the host, sharing our memory, keeps its own network.
    if (request.netns_fd >= 0 && ::setns(request.netns_fd, CLONE_NEWNET) != 0) {
        give_up(block, kJoinNetwork);
    }
    if (!block->pid_namespace && ::setsid() < 0) {
        give_up(block, kSession);
    }
    if (block->mounts != nullptr) {
        int step = kNoFailure;
        if (!build_mount_view(*block->mounts, step)) {
            give_up(block, step);
        }
    }

    const pid_t target = ::clone(init_steps::start_target, block->target_stack.top(),
                                 CLONE_VM | CLONE_VFORK | SIGCHLD, block);
    if (target < 0) {
        give_up(block, kStartTarget);
    }
    if (block->failed_step != kNoFailure) {
        (void)reap_children(block, target);
        publish(block, kPhaseReported);
        end_init(127);
    }
    block->target_started = true;
    publish(block, kPhaseReported);

    init_steps::serve_until_target_ends(block, target);
    end_init(0);
}

const char *child_step_name(int step) {
    switch (step) {
        case kUserNamespace:
            return "map the user namespace";
        case kJoinNetwork:
            return "setns network namespace";
        case kSession:
            return "setsid";
        case kJoinCgroup:
            return "join cgroup";
        case kPrivateMounts:
            return "make mounts private";
        case kMountWorkspace:
            return "mount the workspace";
        case kFilesystemView:
            return "build the filesystem view";
        case kStartTarget:
            return "clone the target";
        case kSetRlimit:
            return "setrlimit";
        case kChdir:
            return "chdir";
        case kStdio:
            return "dup2";
        case kExec:
            return "execve";
        default:
            return "start";
    }
}

}  // namespace sbx::local
