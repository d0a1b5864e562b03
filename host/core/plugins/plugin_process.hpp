// A child sbx-plugin-host that loads one plugin file and serves its calls over a socket
// pair: spawned, waited on with deadlines and cancellation, killed and reaped when dropped.
#pragma once

#include <sys/types.h>
#include <sbx/unique_fd.hpp>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>

#include "plugins/plugin_wire.hpp"

namespace sbx::plugins {

// The program that serves isolated plugins: set by the CLI from where it is installed;
// else the build tree's (unit tests).
void set_plugin_host_program(const std::filesystem::path &program);
std::filesystem::path plugin_host_program();

class PluginProcess {
  public:
    enum class Mode : uint8_t { describe, serve };
    using Clock = std::chrono::steady_clock;

    // What waiting for the child's next frame gave.
    struct Received {
        enum class Kind : uint8_t { frame, died, timed_out, garbage, cancelled } kind;
        wire::Frame frame;
        std::string why;  // "crashed with SIGSEGV", "sent a frame length of ...", ...
    };

    // Spawns `sbx-plugin-host --describe|--serve PATH LEVEL MEMORY` with the channel on its
    // fd 3; the child holds its own data to `memory_bytes` (0: no limit).
    // Throws EnvironmentError when the program cannot be started.
    PluginProcess(const std::filesystem::path &plugin, Mode mode, uint64_t memory_bytes = 0);
    // Closes the channel (the child destroys its instance and exits), then kills what is
    // still there after a grace, and reaps it.
    ~PluginProcess();
    PluginProcess(const PluginProcess &) = delete;
    PluginProcess &operator=(const PluginProcess &) = delete;

    // False when the child is gone.
    bool send(wire::FrameType type, const std::string &payload);
    // The next frame that is not a log line (those go to the host's log as they come),
    // until `deadline`. On a cancel request (a signal) the child is asked to stop and given
    // kCancelGrace to answer before it is killed.
    Received receive(Clock::time_point deadline);
    // Kills the child now and reaps it; "crashed with SIGSEGV" style text of how it ended.
    std::string kill_and_reap();
    [[nodiscard]] pid_t pid() const { return pid_; }
    // The child's peak resident memory in bytes: its high-water mark while it runs, what
    // wait4 reported once it is reaped (0 when unknown).
    [[nodiscard]] uint64_t peak_memory_bytes() const;

    static constexpr std::chrono::milliseconds kCancelGrace{500};

  private:
    // Waits up to `grace` for the child to end, and says how it ended.
    std::string reap(std::chrono::milliseconds grace);
    void log_line(const std::string &payload) const;

    pid_t pid_ = -1;
    bool reaped_ = false;
    std::string ended_;  // how the child ended, once reaped
    uint64_t reaped_peak_bytes_ = 0;
    UniqueFd channel_;
    UniqueFd pidfd_;
    wire::FrameReader reader_;
};

// "crashed with SIGSEGV" / "exited with status 3": a wait status in words.
std::string describe_exit(int wait_status);

}  // namespace sbx::plugins
