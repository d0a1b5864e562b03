// posix_spawnp with two pipes, read through poll until both close, then reaped.
#include "util/command_output.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string_view>

extern char **environ;

namespace sbx::util {
namespace {

struct Pipe {
    int read_end = -1;
    int write_end = -1;
    Pipe() {
        int fds[2];
        if (::pipe2(fds, O_CLOEXEC) == 0) {
            read_end = fds[0];
            write_end = fds[1];
        }
    }
    ~Pipe() {
        close_read();
        close_write();
    }
    Pipe(const Pipe &) = delete;
    Pipe &operator=(const Pipe &) = delete;
    void close_read() {
        if (read_end >= 0) {
            ::close(read_end);
            read_end = -1;
        }
    }
    void close_write() {
        if (write_end >= 0) {
            ::close(write_end);
            write_end = -1;
        }
    }
};

}  // namespace

std::string CommandOutput::failure() const {
    if (!error.empty()) {
        return error;
    }
    std::string said = err.empty() ? out : err;
    while (!said.empty() && (said.back() == '\n' || said.back() == ' ')) {
        said.pop_back();
    }
    const std::string how = timed_out        ? "no answer before the deadline"
                            : exit_code >= 0 ? "exit " + std::to_string(exit_code)
                                             : "ended by a signal";
    return said.empty() ? how : how + ": " + said;
}

CommandOutput command_output(const std::vector<std::string> &argv,
                             std::chrono::milliseconds deadline,
                             const std::vector<std::string> &environment) {
    CommandOutput result;
    if (argv.empty()) {
        result.error = "no command";
        return result;
    }
    Pipe out;
    Pipe err;
    if (out.read_end < 0 || err.read_end < 0) {
        result.error = std::string("pipe: ") + std::strerror(errno);
        return result;
    }
    std::vector<char *> pointers;
    pointers.reserve(argv.size() + 1);
    for (const auto &word : argv) {
        pointers.push_back(const_cast<char *>(word.c_str()));
    }
    pointers.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    ::posix_spawn_file_actions_init(&actions);
    ::posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    ::posix_spawn_file_actions_adddup2(&actions, out.write_end, 1);
    ::posix_spawn_file_actions_adddup2(&actions, err.write_end, 2);
    // A process group of its own: a Ctrl-C at the terminal is the host's to handle (it may
    // still need this very command, scancel say), not a signal that kills the command.
    posix_spawnattr_t attributes;
    ::posix_spawnattr_init(&attributes);
    ::posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
    ::posix_spawnattr_setpgroup(&attributes, 0);
    // The host's environment, less the names `environment` sets, then `environment`.
    std::vector<char *> variables;
    for (char **entry = environ; *entry != nullptr; ++entry) {
        const std::string_view text(*entry);
        const std::string_view name = text.substr(0, text.find('='));
        if (std::none_of(environment.begin(), environment.end(), [&](const std::string &set) {
                return set.size() > name.size() && set.compare(0, name.size(), name) == 0 &&
                       set[name.size()] == '=';
            })) {
            variables.push_back(*entry);
        }
    }
    for (const auto &entry : environment) {
        variables.push_back(const_cast<char *>(entry.c_str()));
    }
    variables.push_back(nullptr);
    pid_t pid = -1;
    const int spawn_error = ::posix_spawnp(&pid, argv[0].c_str(), &actions, &attributes,
                                           pointers.data(), variables.data());
    ::posix_spawnattr_destroy(&attributes);
    ::posix_spawn_file_actions_destroy(&actions);
    out.close_write();
    err.close_write();
    if (spawn_error != 0) {
        result.error = argv[0] + ": " + std::strerror(spawn_error);
        return result;
    }
    const auto end = std::chrono::steady_clock::now() + deadline;
    char buffer[8192];
    while (out.read_end >= 0 || err.read_end >= 0) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            end - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            result.timed_out = true;
            ::kill(pid, SIGKILL);
            break;
        }
        pollfd fds[2] = {{out.read_end, POLLIN, 0}, {err.read_end, POLLIN, 0}};
        const int ready = ::poll(fds, 2, static_cast<int>(left.count()));
        if (ready < 0 && errno != EINTR) {
            break;
        }
        for (int i = 0; i < 2 && ready > 0; ++i) {
            if (fds[i].fd < 0 || fds[i].revents == 0) {
                continue;
            }
            Pipe &pipe = i == 0 ? out : err;
            const ssize_t got = ::read(pipe.read_end, buffer, sizeof buffer);
            if (got > 0) {
                (i == 0 ? result.out : result.err).append(buffer, static_cast<size_t>(got));
            } else if (got == 0 || errno != EINTR) {
                pipe.close_read();
            }
        }
    }
    int status = 0;
    pid_t reaped = -1;
    while ((reaped = ::waitpid(pid, &status, 0)) < 0 && errno == EINTR) {
    }
    if (reaped == pid && !result.timed_out && WIFEXITED(status)) {
        result.exit_code = WEXITSTATUS(status);
    }
    return result;
}

}  // namespace sbx::util
