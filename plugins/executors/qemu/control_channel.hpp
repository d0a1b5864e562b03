// The host's end of the guest agent's serial port: QEMU listens on a unix socket in the
// overlay folder, we connect, and lines go both ways ("run N" / "done N").
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>

namespace sbx::qemu {

class ControlChannel {
  public:
    ControlChannel() = default;
    ~ControlChannel();
    ControlChannel(const ControlChannel &) = delete;
    ControlChannel &operator=(const ControlChannel &) = delete;

    // Connects to `socket_path`, retrying until `deadline` while `keep_trying()` holds (QEMU
    // makes the socket a moment after it starts). False when it never could.
    bool connect(const std::string &socket_path, std::chrono::steady_clock::time_point deadline,
                 const std::function<bool()> &keep_trying);
    bool send_line(const std::string &line);
    // The next line, or nullopt at the deadline, at end of stream, or when `keep_waiting()`
    // turns false (checked every 100 ms). `closed()` tells end of stream apart.
    std::optional<std::string> read_line(std::chrono::steady_clock::time_point deadline,
                                         const std::function<bool()> &keep_waiting);
    [[nodiscard]] bool closed() const { return closed_; }

  private:
    int fd_ = -1;
    std::string buffer_;
    bool closed_ = false;
};

}  // namespace sbx::qemu
