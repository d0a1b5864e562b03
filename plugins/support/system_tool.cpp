// posix_spawn of system tools. posix_spawn, not fork: the host is multi-threaded, and
// glibc's posix_spawn uses CLONE_VFORK, so no allocation happens in a forked copy. A tool
// run inside a network namespace starts the same way (network_entry.cpp).
#include "support/system_tool.hpp"

#include <sbx/plugin.hpp>

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <signal.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>

#include <sbx/unique_fd.hpp>

#include "environment_variable.hpp"
#include "support/network_entry.hpp"
#include "support/sys_error.hpp"

extern char **environ;  // NOLINT: POSIX global

namespace sbx::support {
namespace {

// A pipe, or a socket pair for the tool's stdin: writing to a socket with MSG_NOSIGNAL
// cannot raise SIGPIPE in the host when the tool exits without reading its input.
class Pipe {
  public:
    explicit Pipe(bool socket = false) {
        const int made = socket ? ::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds_.data())
                                : ::pipe2(fds_.data(), O_CLOEXEC);
        if (made != 0) {
            throw Error(SBX_ERROR, "cannot make a pipe for a system tool: " + errno_text(errno));
        }
    }
    ~Pipe() {
        close_read();
        close_write();
    }
    Pipe(const Pipe &) = delete;
    Pipe &operator=(const Pipe &) = delete;
    [[nodiscard]] int read_end() const { return fds_[0]; }
    [[nodiscard]] int write_end() const { return fds_[1]; }
    void close_read() { close_fd(fds_[0]); }
    void close_write() { close_fd(fds_[1]); }

  private:
    static void close_fd(int &fd) {
        if (fd >= 0) {
            ::close(fd);
            fd = -1;
        }
    }
    std::array<int, 2> fds_{-1, -1};
};

class SpawnActions {
  public:
    SpawnActions() { ::posix_spawn_file_actions_init(&actions_); }
    ~SpawnActions() { ::posix_spawn_file_actions_destroy(&actions_); }
    SpawnActions(const SpawnActions &) = delete;
    SpawnActions &operator=(const SpawnActions &) = delete;
    posix_spawn_file_actions_t *get() { return &actions_; }

  private:
    posix_spawn_file_actions_t actions_{};
};

// Writes `input` to `in` and reads `out` to its end, alternating so neither side blocks;
// gives up at `deadline` (time_point::max(): never), setting `timed_out`.
std::string exchange(Pipe &in, Pipe &out, const std::string &input,
                     std::chrono::steady_clock::time_point deadline, bool &timed_out) {
    std::string output;
    std::size_t written = 0;
    if (input.empty()) {
        in.close_write();
    }
    std::array<char, 4096> buffer{};
    for (;;) {
        std::array<pollfd, 2> fds{{{out.read_end(), POLLIN, 0}, {in.write_end(), POLLOUT, 0}}};
        const nfds_t count = in.write_end() >= 0 ? 2 : 1;
        int wait_ms = -1;
        if (deadline != std::chrono::steady_clock::time_point::max()) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0) {
                timed_out = true;
                break;
            }
            wait_ms = static_cast<int>(std::min<long long>(left.count(), 1000));
        }
        if (::poll(fds.data(), count, wait_ms) < 0) {
            if (errno == EINTR) {
                continue;
            }
            break;
        }
        if (count == 2 && (fds[1].revents & (POLLOUT | POLLERR | POLLHUP)) != 0) {
            const ssize_t n = ::send(in.write_end(), input.data() + written, input.size() - written,
                                     MSG_NOSIGNAL | MSG_DONTWAIT);
            if (n > 0) {
                written += static_cast<std::size_t>(n);
            }
            if (n < 0 && errno != EAGAIN && errno != EINTR) {
                written = input.size();  // the tool closed its stdin: stop feeding it
            }
            if (written == input.size()) {
                in.close_write();  // the tool reads its end of input
            }
        }
        if ((fds[0].revents & (POLLIN | POLLHUP | POLLERR)) != 0) {
            const ssize_t n = ::read(out.read_end(), buffer.data(), buffer.size());
            if (n > 0) {
                output.append(buffer.data(), static_cast<std::size_t>(n));
            } else if (n == 0 || errno != EINTR) {
                break;
            }
        }
    }
    return output;
}

}  // namespace

std::optional<std::string> find_executable(const std::string &name) {
    const char *path = environment_variable("PATH");
    std::string folders = path != nullptr ? path : "";
    folders += ":/usr/sbin:/sbin:/usr/bin:/bin";
    std::size_t start = 0;
    while (start <= folders.size()) {
        const std::size_t end = std::min(folders.find(':', start), folders.size());
        const std::string folder = folders.substr(start, end - start);
        start = end + 1;
        if (folder.empty() || folder.front() != '/') {
            continue;
        }
        std::string candidate = folder;
        candidate += '/';
        candidate += name;
        struct stat info {};
        if (::stat(candidate.c_str(), &info) == 0 && S_ISREG(info.st_mode) &&
            ::access(candidate.c_str(), X_OK) == 0) {
            return candidate;
        }
    }
    return std::nullopt;
}

std::string find_tool(const std::string &name, const std::string &package) {
    if (auto found = find_executable(name)) {
        return *found;
    }
    throw Error(SBX_UNSUPPORTED, "'" + name +
                                     "' is not in PATH nor in /usr/sbin or /sbin; install the "
                                     "Debian package " +
                                     package + " (tools/install-deps does)");
}

std::string command_text(const std::vector<std::string> &argv) {
    std::string text;
    for (const auto &word : argv) {
        text += (text.empty() ? "" : " ") + word;
    }
    return text;
}

namespace {

// posix_spawn of argv with `in` as stdin and `out` as stdout (and stderr when merged).
pid_t spawn(const std::vector<std::string> &argv, Pipe &in, Pipe &out, Output output) {
    SpawnActions actions;
    ::posix_spawn_file_actions_adddup2(actions.get(), in.read_end(), 0);
    ::posix_spawn_file_actions_adddup2(actions.get(), out.write_end(), 1);
    if (output == Output::merged) {
        ::posix_spawn_file_actions_adddup2(actions.get(), out.write_end(), 2);
    } else {
        ::posix_spawn_file_actions_addopen(actions.get(), 2, "/dev/null", O_WRONLY, 0);
    }
    std::vector<char *> args;
    args.reserve(argv.size() + 1);
    for (const auto &word : argv) {
        args.push_back(const_cast<char *>(word.c_str()));
    }
    args.push_back(nullptr);
    pid_t pid = -1;
    const int error =
        ::posix_spawn(&pid, argv.front().c_str(), actions.get(), nullptr, args.data(), environ);
    if (error != 0) {
        throw Error(SBX_ERROR, "cannot run `" + command_text(argv) + "`: " + errno_text(error));
    }
    return pid;
}

}  // namespace

ToolResult run_tool(const std::vector<std::string> &argv, const std::string &input, Output output,
                    std::chrono::milliseconds timeout, const NetworkEntry *inside) {
    Pipe in(true);
    Pipe out;
    pid_t pid = -1;
    if (inside != nullptr) {
        const UniqueFd null(::open("/dev/null", O_WRONLY | O_CLOEXEC));
        pid = spawn_inside(*inside, argv, in.read_end(), out.write_end(),
                           output == Output::merged ? out.write_end() : null.get());
    } else {
        pid = spawn(argv, in, out, output);
    }
    in.close_read();
    out.close_write();
    ToolResult result;
    bool timed_out = false;
    result.output = exchange(in, out, input,
                             timeout.count() > 0 ? std::chrono::steady_clock::now() + timeout
                                                 : std::chrono::steady_clock::time_point::max(),
                             timed_out);
    if (timed_out) {
        ::kill(pid, SIGKILL);
        result.output += " (killed after " + std::to_string(timeout.count()) + " ms)";
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            throw Error(SBX_ERROR, "waitpid on `" + command_text(argv) + "`: " + errno_text(errno));
        }
    }
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    while (output == Output::merged && !result.output.empty() &&
           (result.output.back() == '\n' || result.output.back() == ' ')) {
        result.output.pop_back();
    }
    return result;
}

void run_tool_checked(const std::vector<std::string> &argv, const std::string &what,
                      const std::string &input, const NetworkEntry *inside) {
    const ToolResult result =
        run_tool(argv, input, Output::merged, std::chrono::milliseconds(0), inside);
    if (result.exit_code != 0) {
        std::string message =
            what + ": `" + command_text(argv) + "` exited with " + std::to_string(result.exit_code);
        if (!result.output.empty()) {
            message += ": " + result.output;
        }
        if (!input.empty()) {
            message += " (input: " + input + ")";
        }
        throw Error(SBX_ERROR, message);
    }
}

}  // namespace sbx::support
