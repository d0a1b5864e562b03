// The machine's processes as /proc shows them, read so that a process ending mid-read (a
// compiler beside the tests, a target the host just killed) is left out, never an error:
// reading /proc/PID/cmdline of a dying process fails with ESRCH, and a std::ifstream turns
// that into an exception in the test.
#pragma once

#include <sys/types.h>

#include <string>
#include <string_view>
#include <vector>

namespace sbx::test {

struct LiveProcess {
    pid_t pid = 0;
    std::string cmdline;  // the arguments, each followed by a NUL, as /proc has them
};

// /proc/PID/NAME ("cmdline", "stat", ...); empty when the process is gone or it is unreadable.
std::string proc_file(pid_t pid, const char *name);

// Every process but the calling one, with its command line.
std::vector<LiveProcess> live_processes();

// The processes (not the calling one) whose command line contains `needle`.
std::vector<pid_t> processes_whose_cmdline_contains(std::string_view needle);

}  // namespace sbx::test
