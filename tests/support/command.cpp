// Test helper: spawn a program with captured output (through temp files, so neither
// pipe can fill up and deadlock the test).
#include "command.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace sbx::test {
namespace {

std::string slurp(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

std::string make_temp_dir(const std::string &prefix) {
    const char *base = getenv("TMPDIR");
    std::string pattern = std::string(base ? base : "/tmp") + "/" + prefix + "XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr) {
        throw std::runtime_error("mkdtemp failed for " + pattern);
    }
    return pattern;
}

namespace {

// Forks and execs argv with stdout and stderr sent to the given files.
pid_t start(const std::vector<std::string> &argv, const std::map<std::string, std::string> &env,
            const std::string &working_dir, const std::string &out_path,
            const std::string &err_path) {
    const pid_t pid = fork();
    if (pid < 0) {
        throw std::runtime_error("fork failed");
    }
    if (pid == 0) {
        const int out = open(out_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
        const int err = open(err_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
        dup2(out, 1);
        dup2(err, 2);
        for (const auto &[key, value] : env) {
            setenv(key.c_str(), value.c_str(), 1);
        }
        if (!working_dir.empty() && chdir(working_dir.c_str()) != 0) {
            _exit(126);
        }
        std::vector<char *> args;
        args.reserve(argv.size() + 1);
        for (const auto &arg : argv) {
            args.push_back(const_cast<char *>(arg.c_str()));
        }
        args.push_back(nullptr);
        execv(args[0], args.data());
        _exit(127);
    }
    return pid;
}

// The programs tests started in the background. A test that fails before it waits for its
// program leaves it running: it is ended with the test (CliTest::TearDown, or at the latest
// when the test process exits), so that none outlives its test or writes into a folder the
// test is removing. Held by pidfd (by syscall: this glibc's <sys/pidfd.h> lacks extern "C"): a pid
// the test already reaped may name another process.
class BackgroundPrograms {
  public:
    BackgroundPrograms() = default;
    BackgroundPrograms(const BackgroundPrograms &) = delete;
    BackgroundPrograms &operator=(const BackgroundPrograms &) = delete;
    ~BackgroundPrograms() { end_all(); }

    void add(pid_t pid) {
        const int fd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
        if (fd >= 0) {
            fds_.push_back(fd);
        }
    }

    // SIGTERM first, so that a host cleans up what it made; SIGKILL after 5 s.
    void end_all() {
        for (const int fd : fds_) {
            if (::syscall(SYS_pidfd_send_signal, fd, SIGTERM, nullptr, 0) == 0) {
                pollfd ended{fd, POLLIN, 0};
                if (::poll(&ended, 1, 5000) == 0) {
                    (void)::syscall(SYS_pidfd_send_signal, fd, SIGKILL, nullptr, 0);
                }
            }
            siginfo_t info{};
            (void)::waitid(P_PIDFD, static_cast<id_t>(fd), &info, WEXITED);  // ECHILD: reaped
            ::close(fd);
        }
        fds_.clear();
    }

  private:
    std::vector<int> fds_;
};

BackgroundPrograms &background_programs() {
    static BackgroundPrograms programs;
    return programs;
}

}  // namespace

void end_background_programs() {
    background_programs().end_all();
}

int spawn_background(const std::vector<std::string> &argv,
                     const std::map<std::string, std::string> &env, const std::string &working_dir,
                     const std::string &log_path) {
    // A log left by an earlier start goes; anything else (a caller passing /dev/null, as
    // root) must not: removing /dev/null broke every later test on the machine.
    struct stat existing {};
    if (::lstat(log_path.c_str(), &existing) == 0 && S_ISREG(existing.st_mode)) {
        std::remove(log_path.c_str());
    }
    const pid_t pid = start(argv, env, working_dir, log_path, log_path);
    background_programs().add(pid);
    return pid;
}

CommandResult run_command(const std::vector<std::string> &argv,
                          const std::map<std::string, std::string> &env,
                          const std::string &working_dir) {
    const std::string dir = make_temp_dir("sbx-cmd-");
    const std::string out_path = dir + "/out", err_path = dir + "/err";
    const pid_t pid = start(argv, env, working_dir, out_path, err_path);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
    }
    CommandResult result;
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    result.out = slurp(out_path);
    result.err = slurp(err_path);
    std::remove(out_path.c_str());
    std::remove(err_path.c_str());
    rmdir(dir.c_str());
    return result;
}

}  // namespace sbx::test
