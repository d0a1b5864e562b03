// Running a short external command (sbatch, squeue, scancel) and reading what
// it printed, with a deadline: a scheduler that does not answer must not hang the host.
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace sbx::util {

struct CommandOutput {
    // The exit code; -1 when it did not exit normally (killed at the deadline, a signal,
    // or it could not be started: then `error` says why).
    int exit_code = -1;
    std::string out;
    std::string err;
    bool timed_out = false;
    std::string error;  // why it could not be started; "" when it ran

    [[nodiscard]] bool ok() const { return exit_code == 0; }
    // "exit 1: <stderr>" or the start error, for messages.
    [[nodiscard]] std::string failure() const;
};

// Runs `argv` (argv[0] looked up in PATH), stdin from /dev/null, in a process group of
// its own, until it exits or `deadline` passes (then SIGKILL). stdout and stderr are read as they
// come, so a chatty command cannot block on a full pipe. `environment`: "NAME=value" entries the
// command gets besides (or instead of) the host's.
CommandOutput command_output(const std::vector<std::string> &argv,
                             std::chrono::milliseconds deadline,
                             const std::vector<std::string> &environment = {});

}  // namespace sbx::util
