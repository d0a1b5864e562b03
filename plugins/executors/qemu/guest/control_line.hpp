// The agent's side of the control channel (see agent_main.cpp): the serial port's bytes cut
// into lines, and a line read as a command. Apart from the agent so the fuzz harness
// (tests/fuzz/fuzz_guest_control.cpp) runs the very code the guest runs.
#pragma once

#include <string>

namespace sbx::guest {

enum class ControlKind { run, quit, invalid };

struct ControlCommand {
    ControlKind kind = ControlKind::invalid;
    std::string job_id;   // run: the job's folder under <share>/jobs/, decimal digits only
    std::string problem;  // invalid: what is wrong with the line, for the "fail ?" answer
};

// Moves the first complete line of `buffer` (without its "\n" and a "\r" before it) into
// `line`; false, leaving both alone, when `buffer` holds no "\n" yet.
bool take_line(std::string &buffer, std::string &line);

// "run N" (N: 1 to 20 decimal digits, what the host's job counter writes) or "quit".
// Anything else is invalid: a job id that is not a number could name a folder outside the
// share's jobs/ folder ("run ../..").
ControlCommand parse_control_line(const std::string &line);

}  // namespace sbx::guest
