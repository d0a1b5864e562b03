// Running a command on a pseudo-terminal, as a user at a terminal sees it: what only a
// terminal shows (the progress line) can be tested.
#pragma once

#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

namespace sbx::test {

struct PtyResult {
    int exit_code = -1;
    std::string output;  // stdout and stderr, both on the terminal, as the user sees them
};

// Runs argv with a pseudo-terminal as its stdin, stdout and stderr.
inline PtyResult run_in_pty(const std::vector<std::string> &argv,
                            const std::vector<std::string> &env_assignments) {
    int master = -1;
    winsize size{};
    size.ws_col = 200;
    size.ws_row = 50;
    const pid_t pid = ::forkpty(&master, nullptr, nullptr, &size);
    if (pid < 0) {
        ADD_FAILURE() << "forkpty: " << std::strerror(errno);
        return {};
    }
    if (pid == 0) {
        for (const auto &assignment : env_assignments) {
            ::putenv(const_cast<char *>(assignment.c_str()));
        }
        std::vector<char *> args;
        args.reserve(argv.size() + 1);
        for (const auto &arg : argv) {
            args.push_back(const_cast<char *>(arg.c_str()));
        }
        args.push_back(nullptr);
        ::execv(args[0], args.data());
        ::_exit(127);
    }
    PtyResult result;
    char buffer[4096];
    for (;;) {
        const ssize_t got = ::read(master, buffer, sizeof(buffer));
        if (got > 0) {
            result.output.append(buffer, static_cast<size_t>(got));
        } else if (got < 0 && errno == EINTR) {
            continue;
        } else {
            break;  // EIO: the child closed the terminal
        }
    }
    ::close(master);
    int status = 0;
    ::waitpid(pid, &status, 0);
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return result;
}

}  // namespace sbx::test
