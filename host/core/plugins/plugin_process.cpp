// Spawning and supervising the child that serves an isolated plugin.
#include "plugins/plugin_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <spdlog/spdlog.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <mutex>
#include <thread>
#include <vector>

#include "plugins/plugin.hpp"
#include "util/errors.hpp"
#include "util/number_parse.hpp"

extern char **environ;

namespace sbx::plugins {
namespace {

std::mutex g_program_mutex;
std::filesystem::path g_program;

// The descriptor the child gets as fd 3 must not be 3 already: dup2 onto itself would
// keep its close-on-exec flag, and the child would start without its channel.
constexpr int kFirstSafeDescriptor = 10;

// Reaps `pid` (wait4: its peak resident memory comes with it, into `peak_bytes`).
int wait_status_or_minus_one(pid_t pid, bool block, uint64_t &peak_bytes) {
    int status = 0;
    while (true) {
        rusage usage{};
        const pid_t got = ::wait4(pid, &status, block ? 0 : WNOHANG, &usage);
        if (got == pid) {
            peak_bytes = static_cast<uint64_t>(usage.ru_maxrss) * 1024;
            return status;
        }
        if (got < 0 && errno == EINTR) {
            continue;
        }
        return -1;
    }
}

}  // namespace

void set_plugin_host_program(const std::filesystem::path &program) {
    const std::lock_guard<std::mutex> lock(g_program_mutex);
    g_program = program;
}

std::filesystem::path plugin_host_program() {
    {
        const std::lock_guard<std::mutex> lock(g_program_mutex);
        if (!g_program.empty()) {
            return g_program;
        }
    }
#ifdef SBX_PLUGIN_HOST_BUILD_PATH
    return SBX_PLUGIN_HOST_BUILD_PATH;
#else
    return "sbx-plugin-host";
#endif
}

std::string describe_exit(int wait_status) {
    if (WIFSIGNALED(wait_status)) {
        const int number = WTERMSIG(wait_status);
        const char *abbreviation = ::sigabbrev_np(number);
        return "crashed with " + (abbreviation ? std::string("SIG") + abbreviation
                                               : "signal " + std::to_string(number));
    }
    if (WIFEXITED(wait_status)) {
        return "exited with status " + std::to_string(WEXITSTATUS(wait_status));
    }
    return "ended";
}

PluginProcess::PluginProcess(const std::filesystem::path &plugin, Mode mode,
                             uint64_t memory_bytes) {
    int pair[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) {
        throw EnvironmentError(std::string("cannot make a channel to a plugin host: ") +
                               std::strerror(errno));
    }
    channel_.reset(pair[0]);
    UniqueFd child_end(::fcntl(pair[1], F_DUPFD_CLOEXEC, kFirstSafeDescriptor));
    ::close(pair[1]);
    if (!child_end) {
        throw EnvironmentError(std::string("cannot make a channel to a plugin host: ") +
                               std::strerror(errno));
    }
    const std::string program = plugin_host_program().string();
    const std::string path = plugin.string();
    // The child logs only what the host's log would keep.
    const std::string level = std::to_string(static_cast<int>(spdlog::get_level()));
    const std::string memory = std::to_string(memory_bytes);
    const char *argv[] = {program.c_str(), mode == Mode::describe ? "--describe" : "--serve",
                          path.c_str(),    level.c_str(),
                          memory.c_str(),  nullptr};
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, child_end.get(), 3);
    // The host's stdout is for its own output (`run --json`); what a plugin prints goes
    // to stderr instead.
    posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO);
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    // The child starts with default dispositions and nothing blocked, whatever the
    // spawning thread had.
    sigset_t none;
    sigset_t all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setsigdefault(&attributes, &all);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    const int failed = ::posix_spawn(&pid_, program.c_str(), &actions, &attributes,
                                     const_cast<char *const *>(argv), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    if (failed != 0) {
        pid_ = -1;
        throw EnvironmentError("cannot start the plugin host " + program + ": " +
                               std::strerror(failed) +
                               "; reinstall sandbox-runner, or set SANDBOX_PLUGIN_HOST to its "
                               "sbx-plugin-host");
    }
    pidfd_.reset(static_cast<int>(::syscall(SYS_pidfd_open, pid_, 0)));
    ::fcntl(channel_.get(), F_SETFL, ::fcntl(channel_.get(), F_GETFL) | O_NONBLOCK);
}

PluginProcess::~PluginProcess() {
    if (pid_ < 0 || reaped_) {
        return;
    }
    channel_.reset();  // end of file: the child destroys its instance and exits
    // Rationale: an executor's destroy() may remove what it made (a container); a second
    // is plenty for that and short enough that a stuck child never holds the host up.
    reap(std::chrono::milliseconds(1000));
}

bool PluginProcess::send(wire::FrameType type, const std::string &payload) {
    // The channel is non-blocking for reads; a write of a large request waits in poll.
    std::string frame;
    wire::put_u32(frame, static_cast<uint32_t>(payload.size() + 1));
    frame.push_back(static_cast<char>(type));
    frame += payload;
    size_t sent = 0;
    while (sent < frame.size()) {
        const ssize_t put =
            ::send(channel_.get(), frame.data() + sent, frame.size() - sent, MSG_NOSIGNAL);
        if (put > 0) {
            sent += static_cast<size_t>(put);
            continue;
        }
        if (put < 0 && errno == EINTR) {
            continue;
        }
        if (put < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            pollfd ready{channel_.get(), POLLOUT, 0};
            ::poll(&ready, 1, 100);
            continue;
        }
        return false;
    }
    return true;
}

void PluginProcess::log_line(const std::string &payload) const {
    if (payload.size() < 4) {
        return;
    }
    static constexpr spdlog::level::level_enum kLevels[] = {
        spdlog::level::trace, spdlog::level::debug, spdlog::level::info, spdlog::level::warn,
        spdlog::level::err};
    const auto level = static_cast<int32_t>(wire::get_u32(payload.data()));
    const auto index = std::clamp<int32_t>(level, 0, 4);
    // The text is "[plugin id] message" already, as an in-process plugin's would be.
    spdlog::log(kLevels[index], "{}", payload.substr(4));
}

PluginProcess::Received PluginProcess::receive(Clock::time_point deadline) {
    std::optional<Clock::time_point> cancel_until;
    while (true) {
        wire::Frame frame;
        std::string why;
        const auto next = reader_.next(frame, why);
        if (next == wire::ReadResult::garbage) {
            kill_and_reap();
            return {Received::Kind::garbage, {}, "wrote garbage on its channel (" + why + ")"};
        }
        if (next == wire::ReadResult::frame) {
            if (frame.type == wire::FrameType::log) {
                log_line(frame.payload);
                continue;
            }
            return {Received::Kind::frame, std::move(frame), ""};
        }
        const auto now = Clock::now();
        if (!cancel_until && cancel_requested()) {
            ::kill(pid_, SIGUSR1);  // the child's is_cancelled() turns true
            cancel_until = now + kCancelGrace;
        }
        if (cancel_until && now >= *cancel_until) {
            kill_and_reap();
            return {Received::Kind::cancelled, {}, "was stopped by a signal"};
        }
        if (now >= deadline) {
            kill_and_reap();
            return {Received::Kind::timed_out, {}, "did not answer in time"};
        }
        // Short waits so a signal's cancel request is seen within a tenth of a second.
        const auto until = std::min(deadline, now + std::chrono::milliseconds(100));
        pollfd ready{channel_.get(), POLLIN, 0};
        const auto wait_ms = std::chrono::ceil<std::chrono::milliseconds>(until - now).count();
        const int polled = ::poll(&ready, 1, static_cast<int>(std::max<int64_t>(wait_ms, 0)));
        if (polled > 0 && reader_.fill(channel_.get()) == wire::ReadResult::closed) {
            // The child is gone; what it managed to send before it went still counts.
            wire::Frame last;
            std::string last_why;
            while (reader_.next(last, last_why) == wire::ReadResult::frame) {
                if (last.type == wire::FrameType::log) {
                    log_line(last.payload);
                } else {
                    return {Received::Kind::frame, std::move(last), ""};
                }
            }
            return {Received::Kind::died, {}, reap(std::chrono::milliseconds(2000))};
        }
    }
}

uint64_t PluginProcess::peak_memory_bytes() const {
    if (reaped_ || pid_ < 0) {
        return reaped_peak_bytes_;
    }
    std::ifstream status("/proc/" + std::to_string(pid_) + "/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("VmHWM:", 0) == 0) {  // "VmHWM:  1234 kB"
            const size_t digits = line.find_first_not_of(" \t", 6);
            const size_t unit = line.find(' ', digits);
            const std::string kib =
                digits == std::string::npos ? "" : line.substr(digits, unit - digits);
            return util::parse_uint64(kib, util::LeadingPlus::refused).value_or(0) * 1024;
        }
    }
    return 0;
}

std::string PluginProcess::kill_and_reap() {
    if (pid_ >= 0 && !reaped_) {
        ::kill(pid_, SIGKILL);
    }
    return reap(std::chrono::milliseconds(2000));
}

std::string PluginProcess::reap(std::chrono::milliseconds grace) {
    if (pid_ < 0 || reaped_) {
        return ended_;
    }
    if (pidfd_) {
        pollfd gone{pidfd_.get(), POLLIN, 0};
        while (::poll(&gone, 1, static_cast<int>(grace.count())) < 0 && errno == EINTR) {
        }
    } else {
        const auto until = Clock::now() + grace;
        while (Clock::now() < until && ::kill(pid_, 0) == 0) {
            int status = wait_status_or_minus_one(pid_, false, reaped_peak_bytes_);
            if (status != -1) {
                reaped_ = true;
                ended_ = describe_exit(status);
                return ended_;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
    }
    int status = wait_status_or_minus_one(pid_, false, reaped_peak_bytes_);
    if (status == -1) {
        ::kill(pid_, SIGKILL);
        status = wait_status_or_minus_one(pid_, true, reaped_peak_bytes_);
    }
    reaped_ = true;
    ended_ = status == -1 ? "ended" : describe_exit(status);
    return ended_;
}

}  // namespace sbx::plugins
