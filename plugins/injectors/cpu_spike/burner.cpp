// Burner processes for the cpu_spike failure mode.
#include "burner.hpp"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include <stdexcept>
#include "host_identity.hpp"

namespace cpu_spike {
namespace {

using sbx::injectors::process_start_time;

[[noreturn]] void spin(pid_t parent) {
    // Dies with the host thread that started it, even when the host is SIGKILLed.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) {
        _exit(0);
    }
    // A burner is a fork without exec: it would keep every descriptor the host had open at
    // that moment — the write end of another worker's pipe, say, whose reader would then
    // wait for an end-of-file that never comes. It needs none of them.
    ::close_range(0, ~0U, 0);
    volatile unsigned long long counter = 0;
    for (;;) {
        counter = counter + 1;
    }
}

}  // namespace

Burner start_burner(const std::filesystem::path &state_dir) {
    const pid_t parent = getpid();
    const pid_t pid = fork();
    if (pid < 0) {
        throw std::runtime_error(std::string("fork of a CPU burner failed: ") +
                                 std::strerror(errno));
    }
    if (pid == 0) {
        spin(parent);
    }
    Burner burner{pid, process_start_time(pid), {}};
    if (!state_dir.empty()) {
        std::error_code ec;
        std::filesystem::create_directories(state_dir, ec);
        burner.pid_file = state_dir / ("burner-" + std::to_string(pid));
        std::ofstream(burner.pid_file) << pid << ' ' << burner.start_time << '\n';
    }
    return burner;
}

void stop_burner(const Burner &burner) {
    if (burner.pid > 0 && process_start_time(burner.pid) == burner.start_time) {
        kill(burner.pid, SIGKILL);
        // Only our own children can be reaped; a swept orphan is reaped by init.
        while (waitpid(burner.pid, nullptr, 0) < 0 && errno == EINTR) {
        }
    }
    if (!burner.pid_file.empty()) {
        std::error_code ec;
        std::filesystem::remove(burner.pid_file, ec);
    }
}

namespace {

// The parent pid of a live process, 0 when it is gone.
pid_t parent_of(pid_t pid) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    const auto close_paren = text.rfind(')');
    if (close_paren == std::string::npos) {
        return 0;
    }
    std::istringstream fields(text.substr(close_paren + 2));
    std::string state;
    pid_t parent = 0;
    fields >> state >> parent;
    return parent;
}

}  // namespace

std::vector<std::string> sweep_burners(const std::filesystem::path &state_dir, bool dry_run) {
    std::vector<std::string> removed;
    std::error_code ec;
    for (const auto &entry : std::filesystem::directory_iterator(state_dir, ec)) {
        if (entry.path().filename().string().rfind("burner-", 0) != 0) {
            continue;
        }
        Burner burner;
        std::ifstream(entry.path()) >> burner.pid >> burner.start_time;
        burner.pid_file = entry.path();
        const bool running = burner.pid > 0 && process_start_time(burner.pid) == burner.start_time;
        // A burner still child of its host belongs to a running sandbox-runner, which
        // stops it itself: only orphans (reparented) and stale records are stale.
        if (running && parent_of(burner.pid) > 1) {
            continue;
        }
        removed.push_back(running ? "burner pid " + std::to_string(burner.pid)
                                  : "burner record " + entry.path().filename().string());
        if (!dry_run) {
            stop_burner(burner);
        }
    }
    return removed;
}

}  // namespace cpu_spike
