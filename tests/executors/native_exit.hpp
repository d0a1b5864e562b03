// The ways a program ends by a signal, each run natively by the test (fork/exec with the
// rlimit the executor would set) so an executor's report can be compared with the truth of
// this machine rather than with a literal. The program is the static sbx_test_target.
#pragma once

#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <ostream>
#include <string>
#include <vector>

namespace sbx::test {

struct ExitCase {
    std::string behaviour;          // what the program does, as the test case is named
    std::vector<std::string> args;  // after the program's path
    int expected_signal = 0;        // how a native run ends; checked, so a quirk shows
    long cpu_time_s = 0;            // RLIMIT_CPU {n, n + 1}, as the executors map cpu_time_s
    long file_size_bytes = 0;       // RLIMIT_FSIZE, as an executor maps disk_bytes
    // The verdict: SG, except that a CPU-time limit ending the run is TO (limit cpu_time),
    // as every executor classifies it.
    std::string status = "SG";
};

// Every case. `file_size_by_executor`: the executor maps disk_bytes to RLIMIT_FSIZE (qemu),
// so the case writes under that limit; otherwise (docker, which sizes /tmp instead) the
// program sets the same limit on itself, natively and in the executor alike.
inline std::vector<ExitCase> exit_cases(bool file_size_by_executor) {
    constexpr long kFileSize = 65536;
    const std::string size = std::to_string(kFileSize);
    std::vector<ExitCase> cases = {
        {"Abort", {"abort"}, SIGABRT},
        {"FailedAssert", {"assert"}, SIGABRT},
        {"KillSelfWithSigterm", {"kill-self"}, SIGTERM},
        {"RaiseSigsegv", {"raise-segv"}, SIGSEGV},
        {"NullPointerWrite", {"null-write"}, SIGSEGV},
        {"WriteToClosedPipe", {"closed-pipe"}, SIGPIPE},
        {"CpuTimeLimit", {"busy"}, SIGXCPU, 1, 0, "TO"},
    };
    if (file_size_by_executor) {
        cases.push_back(
            {"WritePastFileSizeLimit", {"write", "big.bin", "1048576"}, SIGXFSZ, 0, kFileSize});
    } else {
        cases.push_back({"WritePastFileSizeLimit", {"fsize", size, "big.bin", "1048576"}, SIGXFSZ});
    }
    return cases;
}

// gtest names a failing parameter by its behaviour.
inline void PrintTo(const ExitCase &c, std::ostream *out) {
    *out << c.behaviour;
}

struct NativeEnding {
    int signal = 0;     // 0 when it exited
    int exit_code = 0;  // 128 + signal, as a shell reports it
};

// Runs `program` with the case's arguments in `folder`, from default signal dispositions,
// under the case's rlimits. No core files (RLIMIT_CORE 0): they would not change the status.
inline NativeEnding run_natively(const std::string &program, const ExitCase &c,
                                 const std::string &folder) {
    const pid_t child = ::fork();
    if (child == 0) {
        for (int signal_number = 1; signal_number < NSIG; ++signal_number) {
            ::signal(signal_number, SIG_DFL);
        }
        sigset_t none;
        sigemptyset(&none);
        ::sigprocmask(SIG_SETMASK, &none, nullptr);
        const rlimit no_core{0, 0};
        ::setrlimit(RLIMIT_CORE, &no_core);
        if (c.cpu_time_s > 0) {
            const rlimit cpu{static_cast<rlim_t>(c.cpu_time_s),
                             static_cast<rlim_t>(c.cpu_time_s + 1)};
            ::setrlimit(RLIMIT_CPU, &cpu);
        }
        if (c.file_size_bytes > 0) {
            const rlimit size{static_cast<rlim_t>(c.file_size_bytes),
                              static_cast<rlim_t>(c.file_size_bytes)};
            ::setrlimit(RLIMIT_FSIZE, &size);
        }
        if (::chdir(folder.c_str()) != 0) {
            ::_exit(120);
        }
        std::vector<char *> argv = {const_cast<char *>(program.c_str())};
        for (const auto &arg : c.args) {
            argv.push_back(const_cast<char *>(arg.c_str()));
        }
        argv.push_back(nullptr);
        ::execv(program.c_str(), argv.data());
        ::_exit(121);
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    if (WIFSIGNALED(status)) {
        return {WTERMSIG(status), 128 + WTERMSIG(status)};
    }
    return {0, WEXITSTATUS(status)};
}

}  // namespace sbx::test
