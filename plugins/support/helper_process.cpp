// Fork, record, stop and sweep of injector helper processes.
#include "helper_process.hpp"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <sbx/process_identity.hpp>

namespace sbx::support {
namespace {

void close_all_but(int keep_fd) {
    if (keep_fd < 0) {
        ::close_range(0, ~0U, 0);
        return;
    }
    const auto keep = static_cast<unsigned>(keep_fd);
    if (keep > 0) {
        ::close_range(0, keep - 1, 0);
    }
    ::close_range(keep + 1, ~0U, 0);
}

}  // namespace

HelperProcess start_helper(const std::filesystem::path &state_dir, const std::string &prefix,
                           const std::function<void()> &body, int keep_fd) {
    const pid_t parent = getpid();
    const pid_t pid = fork();
    if (pid < 0) {
        throw std::runtime_error("fork of a " + prefix + " helper failed: " + std::strerror(errno));
    }
    if (pid == 0) {
        // Dies with the host thread that started it, even when the host is SIGKILLed.
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) {
            _exit(0);
        }
        close_all_but(keep_fd);
        body();
        _exit(0);
    }
    HelperProcess helper{pid, process_start_time(pid), {}};
    if (!state_dir.empty()) {
        std::error_code ec;
        std::filesystem::create_directories(state_dir, ec);
        helper.pid_file = state_dir / (prefix + "-" + std::to_string(pid));
        std::ofstream(helper.pid_file) << pid << ' ' << helper.start_time << '\n';
    }
    return helper;
}

void stop_helper(const HelperProcess &helper) {
    if (helper.pid > 0 && process_start_time(helper.pid) == helper.start_time) {
        kill(helper.pid, SIGKILL);
        // Only our own children can be reaped; a swept orphan is reaped by init.
        while (waitpid(helper.pid, nullptr, 0) < 0 && errno == EINTR) {
        }
    }
    if (!helper.pid_file.empty()) {
        std::error_code ec;
        std::filesystem::remove(helper.pid_file, ec);
    }
}

std::vector<std::string> sweep_helpers(const std::filesystem::path &state_dir,
                                       const std::string &prefix, bool dry_run) {
    std::vector<std::string> removed;
    std::error_code ec;
    for (const auto &entry : std::filesystem::directory_iterator(state_dir, ec)) {
        if (entry.path().filename().string().rfind(prefix + "-", 0) != 0) {
            continue;
        }
        HelperProcess helper;
        std::ifstream(entry.path()) >> helper.pid >> helper.start_time;
        helper.pid_file = entry.path();
        const bool running = helper.pid > 0 && process_start_time(helper.pid) == helper.start_time;
        // A helper still child of its host belongs to a running sandbox-runner, which
        // stops it itself: only orphans (reparented) and stale records are stale.
        if (running && parent_pid(helper.pid) > 1) {
            continue;
        }
        removed.push_back(running ? prefix + " pid " + std::to_string(helper.pid)
                                  : prefix + " record " + entry.path().filename().string());
        if (!dry_run) {
            stop_helper(helper);
        }
    }
    return removed;
}

}  // namespace sbx::support
