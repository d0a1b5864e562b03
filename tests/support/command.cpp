// Test helper: spawn a program with captured output (through temp files, so neither
// pipe can fill up and deadlock the test).
#include "command.hpp"

#include <fcntl.h>
#include <stdlib.h>
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
        for (const auto &arg : argv) {
            args.push_back(const_cast<char *>(arg.c_str()));
        }
        args.push_back(nullptr);
        execv(args[0], args.data());
        _exit(127);
    }
    return pid;
}

}  // namespace

int spawn_background(const std::vector<std::string> &argv,
                     const std::map<std::string, std::string> &env, const std::string &working_dir,
                     const std::string &log_path) {
    std::remove(log_path.c_str());
    return start(argv, env, working_dir, log_path, log_path);
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
