// Only async-signal-safe work would be strictly right after fork in a threaded process; the
// agent has one thread, so the child may allocate.
#include "target_child.hpp"

#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <vector>

#include "file_io.hpp"

namespace sbx::guest {
namespace {

[[noreturn]] void fail(int report_fd, const char *step) {
    const std::string text = std::string(step) + " " + std::to_string(errno);
    (void)!::write(report_fd, text.data(), text.size());
    ::_exit(127);
}

// The target starts as a shell would start it: default dispositions, nothing blocked (the
// agent's own settings must not change how it ends).
void default_signals() {
    for (int signal_number = 1; signal_number < NSIG; ++signal_number) {
        if (signal_number != SIGKILL && signal_number != SIGSTOP) {
            ::signal(signal_number, SIG_DFL);
        }
    }
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
}

void set_limit(int resource, rlim_t soft, rlim_t hard) {
    const rlimit limit{soft, hard};
    ::setrlimit(resource, &limit);
}

void apply_rlimits(const JobRequest &request, bool has_cgroup) {
    if (const auto cpu = request.limit("cpu_time_s"); cpu > 0) {
        set_limit(RLIMIT_CPU, cpu, cpu + 1);
    }
    if (const auto size = request.limit("disk_bytes"); size > 0) {
        set_limit(RLIMIT_FSIZE, size, size);
    }
    // Without a cgroup, the address space is the only memory bound left.
    if (const auto memory = request.limit("memory_bytes"); memory > 0 && !has_cgroup) {
        set_limit(RLIMIT_AS, memory, memory);
    }
}

// The target is nobody: it cannot reach the agent's serial port, the cgroup tree, the other
// jobs' files (the host writes them 0600) or the guest kernel's switches, so it can neither
// forge another job's answer nor lift its own limits.
bool drop_privileges() {
    constexpr uid_t kNobody = 65534;
    return ::setgroups(0, nullptr) == 0 && ::setresgid(kNobody, kNobody, kNobody) == 0 &&
           ::setresuid(kNobody, kNobody, kNobody) == 0 &&
           ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0;
}

std::vector<char *> c_strings(const std::vector<std::string> &items) {
    std::vector<char *> pointers;
    pointers.reserve(items.size() + 1);
    for (const auto &item : items) {
        pointers.push_back(const_cast<char *>(item.c_str()));
    }
    pointers.push_back(nullptr);
    return pointers;
}

}  // namespace

int enter_private_tmp(std::uint64_t disk_bytes) {
    std::string options = "mode=1777";
    if (disk_bytes > 0) {
        options += ",size=" + std::to_string(disk_bytes);
    }
    const bool entered =
        ::unshare(CLONE_NEWNS) == 0 &&
        ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) == 0 &&
        ::mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, options.c_str()) == 0;
    return entered ? 0 : errno;
}

void become_target(const JobCgroup &cgroup, const JobRequest &request, const TargetFds &fds,
                   int private_tmp_errno) {
    ::setsid();
    default_signals();
    if (private_tmp_errno != 0) {
        errno = private_tmp_errno;
        fail(fds.report_fd, "private-tmp");
    }
    // The agent shields itself from the OOM killer; its targets must not inherit that.
    write_file("/proc/self/oom_score_adj", "0");
    apply_rlimits(request, !cgroup.path().empty());
    if (::dup2(fds.stdin_fd, 0) < 0 || ::dup2(fds.stdout_fd, 1) < 0 ||
        ::dup2(fds.stderr_fd, 2) < 0) {
        fail(fds.report_fd, "stdio");
    }
    if (!drop_privileges()) {
        fail(fds.report_fd, "drop privileges");
    }
    // As nobody, so the folder's permissions are checked as the target's.
    if (::fchdir(fds.work_dir_fd) != 0) {
        fail(fds.report_fd, "chdir");
    }
    const auto args = c_strings(request.argv);
    const auto vars = c_strings(request.env);
    ::execvpe(args[0], args.data(), vars.data());
    fail(fds.report_fd, "execve");
}

}  // namespace sbx::guest
