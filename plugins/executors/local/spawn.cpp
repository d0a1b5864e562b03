// clone() of the target. The child runs on its own small stack but shares our memory while
// we are suspended (CLONE_VFORK), like glibc's posix_spawn: it only makes raw system calls.
//
// Why PID 1 of a new PID namespace: when PID 1 ends, the kernel kills every other process in
// the namespace (setsid'ed or double-forked ones included) and wait4 on it returns only after
// they are gone, so no run leaves processes behind, at the cost of one clone flag (measured:
// same ~0.6 ms as posix_spawn; a supervisor process would double it).
//
// Caveat of being PID 1 (documented in README.md): the kernel drops signals a process in the
// namespace sends to PID 1 when PID 1 has no handler for them. So `kill $$` or raise() in
// the target is ignored, abort() ends up as SIGSEGV, SIGPIPE is ignored (writes get EPIPE),
// SIGXFSZ is ignored (an over-long write gets EFBIG) and RLIMIT_CPU ends the target with
// the hard limit's SIGKILL one second after the soft limit. Signals from outside the
// namespace (our SIGKILL, the OOM killer) and faults (SIGSEGV, SIGBUS) still work.
//
// With a tmpfs workspace the child also gets a mount namespace of its own (CLONE_NEWNS),
// makes every mount in it private and attaches the detached tmpfs over the workspace path:
// the host never sees that mount, and it ends with the namespace's last process.
#include "spawn.hpp"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <utility>

#include "sys_error.hpp"

namespace sbx::local {
namespace {

// What the child did last before it gave up; the parent turns it into a message.
enum ChildStep : int {
    kNoFailure = 0,
    kJoinNetwork,
    kSession,
    kJoinCgroup,
    kPrivateMounts,
    kMountWorkspace,
    kSetRlimit,
    kChdir,
    kStdio,
    kExec
};

const char *step_name(int step) {
    switch (step) {
        case kJoinNetwork:
            return "setns network namespace";
        case kSession:
            return "setsid";
        case kJoinCgroup:
            return "join cgroup";
        case kPrivateMounts:
            return "make mounts private";
        case kMountWorkspace:
            return "mount the workspace tmpfs";
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

// Lives in the parent's frame; the child writes the failure fields through CLONE_VM.
// Plain pointers and counts only: the child must not call into container code.
struct ChildContext {
    const SpawnRequest *request;
    const int *cgroup_fds;
    std::size_t cgroup_fd_count;
    const ResourceLimit *limits;
    std::size_t limit_count;
    bool new_session;
    volatile int failed_errno;
    volatile int failed_step;
};

[[noreturn]] void child_fail(ChildContext *context, int step) {
    context->failed_errno = errno;
    context->failed_step = step;
    _exit(127);
}

// Places `fd` on `target`. dup2 onto itself would keep close-on-exec, so that case clears it.
bool place_fd(int fd, int target) {
    if (fd == target) {
        return ::fcntl(fd, F_SETFD, 0) == 0;
    }
    return ::dup2(fd, target) == target;
}

// The child: async-signal-safe system calls only, no allocation, no C++ runtime.
int child_main(void *argument) {
    auto *context = static_cast<ChildContext *>(argument);
    const SpawnRequest &request = *context->request;

    // Every signal back to its default action (the host's handlers live in memory we share
    // and mean nothing to the target); all signals are still blocked from the parent.
    struct sigaction default_action {};
    default_action.sa_handler = SIG_DFL;
    for (int signal_number = 1; signal_number < NSIG; ++signal_number) {
        (void)::sigaction(signal_number, &default_action, nullptr);  // EINVAL for KILL/STOP
    }
    // If the host dies (even by SIGKILL) the target dies with it, and with the target its
    // whole PID namespace: a crashed host leaves no run behind. Rationale for the caveat:
    // the signal fires when the spawning *thread* exits, so runs must be started from
    // threads that outlive them (the host's worker threads do).
    (void)::prctl(PR_SET_PDEATHSIG, SIGKILL);
    // Only this child moves: the host, sharing our memory, keeps its own network.
    if (request.netns_fd >= 0 && ::setns(request.netns_fd, CLONE_NEWNET) != 0) {
        child_fail(context, kJoinNetwork);
    }
    if (context->new_session && ::setsid() < 0) {
        child_fail(context, kSession);
    }
    for (std::size_t i = 0; i < context->cgroup_fd_count; ++i) {
        // Joined before execve, so everything the target does is charged to the run.
        if (::write(context->cgroup_fds[i], "0", 1) != 1) {  // "0": the writing process
            child_fail(context, kJoinCgroup);
        }
    }
    if (request.workspace_mount_fd >= 0) {
        // Our mount namespace is a copy of the host's: unshare propagation first, or the
        // mount below would appear in the host's namespace wherever / is shared.
        if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) {
            child_fail(context, kPrivateMounts);
        }
        if (::move_mount(request.workspace_mount_fd, "", AT_FDCWD, request.workdir,
                         MOVE_MOUNT_F_EMPTY_PATH) != 0) {
            child_fail(context, kMountWorkspace);
        }
    }
    for (std::size_t i = 0; i < context->limit_count; ++i) {
        const ResourceLimit &limit = context->limits[i];
        if (::setrlimit(static_cast<__rlimit_resource_t>(limit.resource), &limit.value) != 0) {
            child_fail(context, kSetRlimit);
        }
    }
    if (::chdir(request.workdir) != 0) {
        child_fail(context, kChdir);
    }
    if (!place_fd(request.stdin_fd, 0) || !place_fd(request.stdout_fd, 1) ||
        !place_fd(request.stderr_fd, 2)) {
        child_fail(context, kStdio);
    }
    // Whatever the host left open without close-on-exec stays out of the target.
    (void)::close_range(3, ~0U, 0);
    sigset_t empty;
    ::sigemptyset(&empty);
    ::sigprocmask(SIG_SETMASK, &empty, nullptr);
    ::execve(request.program, request.argv, request.envp);
    child_fail(context, kExec);
}

// The child's stack: small, because the child only makes a handful of system calls.
class ChildStack {
  public:
    static constexpr std::size_t kSize = std::size_t{64} * 1024;
    ChildStack()
        : base_(::mmap(nullptr, kSize, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0)) {
        if (base_ == MAP_FAILED) {
            throw_system_error("cannot map a stack for the target", errno);
        }
    }
    ~ChildStack() { ::munmap(base_, kSize); }
    ChildStack(const ChildStack &) = delete;
    ChildStack &operator=(const ChildStack &) = delete;
    [[nodiscard]] void *top() const { return static_cast<char *>(base_) + kSize; }

  private:
    void *base_;
};

// Blocks every signal in this thread for the clone: a handler must not run in the child
// while it shares our memory. The raw system call, as in glibc's posix_spawn, because
// sigfillset/pthread_sigmask leave out glibc's internal signals (SIGCANCEL, SIGSETXID).
class BlockAllSignals {
  public:
    BlockAllSignals() {
        const std::uint64_t all = ~std::uint64_t{0};
        ::syscall(SYS_rt_sigprocmask, SIG_BLOCK, &all, &saved_, sizeof(saved_));
    }
    ~BlockAllSignals() {
        ::syscall(SYS_rt_sigprocmask, SIG_SETMASK, &saved_, nullptr, sizeof(saved_));
    }
    BlockAllSignals(const BlockAllSignals &) = delete;
    BlockAllSignals &operator=(const BlockAllSignals &) = delete;

  private:
    std::uint64_t saved_ = 0;  // the kernel's sigset_t: one bit per signal 1..64
};

// Set once CLONE_NEWPID was refused; later runs go straight to the fallback.
std::atomic<bool> g_no_pid_namespace{false};

pid_t clone_child(ChildContext &context, bool new_pid_namespace, int &pidfd, int &error) {
    ChildStack stack;
    int flags = CLONE_VM | CLONE_VFORK | CLONE_PIDFD | SIGCHLD;
    if (new_pid_namespace) {
        flags |= CLONE_NEWPID;
    }
    if (context.request->workspace_mount_fd >= 0) {
        // The workspace tmpfs lives in this namespace only and dies with its last process.
        flags |= CLONE_NEWNS;
    }
    context.new_session = !new_pid_namespace;
    pid_t pid;
    {
        BlockAllSignals blocked;
        pid = ::clone(child_main, stack.top(), flags, &context, &pidfd);
        error = errno;  // meaningful only when pid < 0; the child may have changed errno
    }
    return pid;
}

}  // namespace

const char *isolation_name(Isolation isolation) {
    return isolation == Isolation::kPidNamespace ? "pid_namespace" : "process_group";
}

Target::Target(Target &&other) noexcept
    : pid_(other.pid_),
      pidfd_(std::move(other.pidfd_)),
      isolation_(other.isolation_),
      reaped_(other.reaped_) {
    other.reaped_ = true;
}

Target::~Target() {
    if (reaped_) {
        return;
    }
    kill();
    try {
        (void)wait();
    } catch (...) {  // already reaped elsewhere: nothing left to do
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
        // Without a PID namespace the target's group may outlive it. Kill the group while
        // the unreaped target still pins its id: once reaped, the id may name another group.
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
    reaped_ = true;
    if (reaped != pid_) {
        throw_system_error("wait4 on the target (pid " + std::to_string(pid_) +
                               "): does the host ignore SIGCHLD or reap children itself?",
                           errno);
    }
    return info;
}

SpawnOutcome spawn_target(const SpawnRequest &request) {
    ChildContext context{&request,
                         request.cgroup_procs_fds.data(),
                         request.cgroup_procs_fds.size(),
                         request.limits.data(),
                         request.limits.size(),
                         false,
                         0,
                         kNoFailure};
    int pidfd = -1;
    int error = 0;
    Isolation isolation = Isolation::kProcessGroup;
    pid_t pid = -1;
    if (!g_no_pid_namespace.load()) {
        pid = clone_child(context, true, pidfd, error);
        isolation = Isolation::kPidNamespace;
        // EPERM: no CAP_SYS_ADMIN. EINVAL/ENOSPC: namespaces disabled or nested too deep.
        if (pid < 0 && (error == EPERM || error == EINVAL || error == ENOSPC)) {
            if (!g_no_pid_namespace.exchange(true)) {
                host::log(SBX_LOG_WARN,
                          "cannot create a PID namespace (" + errno_text(error) +
                              "); targets run in their own process group instead, and "
                              "descendants that leave it (setsid) may outlive a run");
            }
        }
    }
    if (pid < 0 && g_no_pid_namespace.load()) {
        pid = clone_child(context, false, pidfd, error);
        isolation = Isolation::kProcessGroup;
    }
    if (pid < 0) {
        throw_system_error("cannot start the target: clone", error);
    }

    UniqueFd owned_pidfd(pidfd);
    SpawnOutcome outcome;
    if (context.failed_step != kNoFailure) {
        // CLONE_VFORK: we resume only once the child has exec'd or exited, so the failure
        // fields are final. Reap the child that gave up.
        Target failed(pid, std::move(owned_pidfd), isolation);
        (void)failed.wait();
        outcome.failed_errno = context.failed_errno;
        outcome.failed_step = step_name(context.failed_step);
        return outcome;
    }
    outcome.target.emplace(pid, std::move(owned_pidfd), isolation);
    return outcome;
}

}  // namespace sbx::local
