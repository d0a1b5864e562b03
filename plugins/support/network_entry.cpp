// The children here share our memory and our thread's stack is not theirs (ChildStack); we
// are suspended until they exit or exec (CLONE_VFORK), with every signal blocked so that no
// handler of the host runs in them. CLONE_FILES where a child opens what we keep.
#include "support/network_entry.hpp"

#include <sbx/plugin.hpp>

#include <fcntl.h>
#include <linux/capability.h>
#include <linux/nsfs.h>
#include <net/if.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <utility>

#include "support/block_all_signals.hpp"
#include "support/child_stack.hpp"
#include "support/sys_error.hpp"
#include "support/user_namespace.hpp"

namespace sbx::support {
namespace {

// What a child did, written into our memory before it ends.
struct ChildReport {
    int failed_errno = 0;
    const char *failed_step = nullptr;
};

int fail(ChildReport &report, const char *step) {
    report.failed_errno = errno;
    report.failed_step = step;
    return 1;
}

// Enters the owning user namespace (when there is one to enter), then the network namespace.
bool enter(int userns_fd, int netns_fd, ChildReport &report) {
    if (userns_fd >= 0 && ::setns(userns_fd, CLONE_NEWUSER) != 0) {
        fail(report, "enter the user namespace owning the network namespace");
        return false;
    }
    if (::setns(netns_fd, CLONE_NEWNET) != 0) {
        fail(report, "enter the network namespace");
        return false;
    }
    return true;
}

// Runs `child(argument)` as a vfork child sharing our memory (and our descriptor table with
// `share_files`), with `extra_flags` for the namespaces it makes; waits until it ended.
// Returns its pid, unreaped when `reap` is false (an exec'd tool the caller waits for).
template <typename Request>
pid_t run_child(int (*child)(void *), Request &request, int extra_flags, bool share_files,
                bool reap) {
    const ChildStack stack;
    pid_t pid;
    {
        const BlockAllSignals blocked;
        pid = ::clone(
            child, stack.top(),
            CLONE_VM | CLONE_VFORK | (share_files ? CLONE_FILES : 0) | extra_flags | SIGCHLD,
            &request);
    }
    if (pid < 0) {
        return -errno;
    }
    if (reap) {
        int status = 0;
        while (::waitpid(pid, &status, __WALL) < 0 && errno == EINTR) {
        }
    }
    return pid;
}

// ----- a socket inside -----

struct SocketRequest {
    int userns_fd = -1;
    int netns_fd = -1;
    int domain = 0;
    int type = 0;
    int protocol = 0;
    int socket_fd = -1;
    ChildReport report;
};

int make_socket(void *argument) {
    auto &request = *static_cast<SocketRequest *>(argument);
    if (!enter(request.userns_fd, request.netns_fd, request.report)) {
        return 1;
    }
    request.socket_fd = ::socket(request.domain, request.type | SOCK_CLOEXEC, request.protocol);
    return request.socket_fd < 0 ? fail(request.report, "socket") : 0;
}

// ----- a tool inside -----

struct ExecRequest {
    int userns_fd = -1;
    int netns_fd = -1;
    int stdio[3] = {-1, -1, -1};
    const char *program = nullptr;
    char *const *argv = nullptr;
    char *const *envp = nullptr;
    std::uint64_t signal_mask = 0;  // the caller's, for the tool
    ChildReport report;
};

// Keeps CAP_NET_ADMIN and CAP_NET_RAW across execve for a process whose uid is not 0 in its
// user namespace (the kernel clears the capabilities of such a process at execve
// otherwise): inheritable, then ambient.
bool keep_network_capabilities() {
    __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct data[2]{};
    if (::syscall(SYS_capget, &header, data) != 0) {
        return false;
    }
    data[0].inheritable |= (1U << CAP_NET_ADMIN) | (1U << CAP_NET_RAW);
    return ::syscall(SYS_capset, &header, data) == 0 &&
           ::prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, CAP_NET_ADMIN, 0, 0) == 0 &&
           ::prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, CAP_NET_RAW, 0, 0) == 0;
}

int exec_tool(void *argument) {
    auto &request = *static_cast<ExecRequest *>(argument);
    if (!enter(request.userns_fd, request.netns_fd, request.report)) {
        return 127;
    }
    if (request.userns_fd >= 0 && !keep_network_capabilities()) {
        fail(request.report, "keep CAP_NET_ADMIN for the tool");
        return 127;
    }
    for (int target = 0; target < 3; ++target) {
        if (::dup2(request.stdio[target], target) < 0) {
            fail(request.report, "dup2");
            return 127;
        }
    }
    ::syscall(SYS_rt_sigprocmask, SIG_SETMASK, &request.signal_mask, nullptr,
              sizeof(request.signal_mask));
    ::execve(request.program, request.argv, request.envp);
    fail(request.report, "execve");
    return 127;
}

// ----- a network namespace without root -----

struct UserNetworkRequest {
    const IdMapText *maps = nullptr;
    int netns_fd = -1;
    int userns_fd = -1;
    ChildReport report;
};

bool bring_loopback_up() {
    const int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return false;
    }
    ifreq request{};
    std::memcpy(request.ifr_name, "lo", 3);
    bool up = ::ioctl(fd, SIOCGIFFLAGS, &request) == 0;
    if (up) {
        request.ifr_flags = static_cast<short>(request.ifr_flags | IFF_UP);
        up = ::ioctl(fd, SIOCSIFFLAGS, &request) == 0;
    }
    ::close(fd);
    return up;
}

int make_user_network(void *argument) {
    auto &request = *static_cast<UserNetworkRequest *>(argument);
    if (!write_id_maps(*request.maps)) {
        return fail(request.report, "map the caller's uid and gid in the user namespace");
    }
    if (!bring_loopback_up()) {
        return fail(request.report, "bring loopback up");
    }
    request.netns_fd = ::open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
    request.userns_fd = ::open("/proc/self/ns/user", O_RDONLY | O_CLOEXEC);
    return request.netns_fd < 0 || request.userns_fd < 0
               ? fail(request.report, "open the namespaces")
               : 0;
}

std::string failure(const ChildReport &report) {
    return std::string(report.failed_step != nullptr ? report.failed_step : "start") + ": " +
           errno_text(report.failed_errno);
}

bool same_file(int fd, const char *path) {
    struct stat a {};
    struct stat b {};
    return ::fstat(fd, &a) == 0 && ::stat(path, &b) == 0 && a.st_dev == b.st_dev &&
           a.st_ino == b.st_ino;
}

}  // namespace

NetworkEntry::NetworkEntry(std::string netns_path)
    : path_(std::move(netns_path)), netns_(::open(path_.c_str(), O_RDONLY | O_CLOEXEC)) {
    if (!netns_) {
        throw_system_error("cannot open network namespace '" + path_ + "'", errno);
    }
    // An owner outside our view (EPERM: an ancestor's) is not one we could enter either:
    // setns() then says what is wrong. ENOTTY: not a namespace at all.
    UniqueFd owner(::ioctl(netns_.get(), NS_GET_USERNS));
    if (!owner && errno == ENOTTY) {
        throw Error(SBX_ERROR,
                    "cannot enter network namespace '" + path_ + "': it is not a namespace");
    }
    if (owner && !same_file(owner.get(), "/proc/self/ns/user")) {
        userns_ = std::move(owner);
    }
}

UniqueFd NetworkEntry::socket(int domain, int type, int protocol, const std::string &what) const {
    SocketRequest request;
    request.userns_fd = userns_.get();
    request.netns_fd = netns_.get();
    request.domain = domain;
    request.type = type;
    request.protocol = protocol;
    const pid_t pid = run_child(make_socket, request, 0, true, true);
    if (pid < 0) {
        throw_system_error("cannot start a child to make " + what + " in " + path_, -pid);
    }
    UniqueFd made(request.socket_fd);
    if (!made) {
        throw Error(SBX_ERROR, "cannot make " + what + " in network namespace " + path_ + ": " +
                                   failure(request.report));
    }
    return made;
}

pid_t spawn_inside(const NetworkEntry &entry, const std::vector<std::string> &argv, int stdin_fd,
                   int stdout_fd, int stderr_fd) {
    std::vector<char *> args;
    args.reserve(argv.size() + 1);
    for (const auto &word : argv) {
        args.push_back(const_cast<char *>(word.c_str()));
    }
    args.push_back(nullptr);
    ExecRequest request;
    request.userns_fd = entry.userns_fd();
    request.netns_fd = entry.netns_fd();
    request.stdio[0] = stdin_fd;
    request.stdio[1] = stdout_fd;
    request.stdio[2] = stderr_fd;
    request.program = args.front();
    request.argv = args.data();
    request.envp = environ;
    ::syscall(SYS_rt_sigprocmask, SIG_BLOCK, nullptr, &request.signal_mask,
              sizeof(request.signal_mask));
    const pid_t pid = run_child(exec_tool, request, 0, false, false);
    if (pid < 0) {
        throw_system_error("cannot start `" + argv.front() + "` in " + entry.path(), -pid);
    }
    if (request.report.failed_step != nullptr) {
        int status = 0;
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        throw Error(SBX_ERROR, "cannot run `" + argv.front() + "` in network namespace " +
                                   entry.path() + ": " + failure(request.report));
    }
    return pid;
}

UserNetwork::UserNetwork() {
    UserNetworkRequest request;
    request.maps = &caller_id_maps();
    const pid_t pid =
        run_child(make_user_network, request, CLONE_NEWUSER | CLONE_NEWNET, true, true);
    netns_.reset(request.netns_fd);
    userns_.reset(request.userns_fd);
    if (pid < 0) {
        throw Error(SBX_UNSUPPORTED,
                    "cannot make a network namespace without root: clone(CLONE_NEWUSER | "
                    "CLONE_NEWNET): " +
                        errno_text(-pid) +
                        "; enable unprivileged user namespaces (sysctl "
                        "user.max_user_namespaces > 0, and kernel.unprivileged_userns_clone=1 "
                        "where it exists), or run as root");
    }
    if (!netns_ || !userns_) {
        throw Error(SBX_UNSUPPORTED,
                    "cannot set up a network namespace without root: " + failure(request.report));
    }
}

std::string UserNetwork::path() const {
    return "/proc/" + std::to_string(::getpid()) + "/fd/" + std::to_string(netns_.get());
}

}  // namespace sbx::support
