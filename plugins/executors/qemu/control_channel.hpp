// The host's end of the guest agent's serial port: one end of a socket pair whose other end
// QEMU serves as the guest's second UART; lines go both ways ("run N" / "done N").
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

    // Takes ownership of a connected stream socket.
    void adopt(int fd) { fd_ = fd; }
    bool send_line(const std::string &line);
    // The next line, or nullopt at the deadline, at end of stream, or when `keep_waiting()`
    // turns false (checked every 100 ms). `closed()` tells end of stream apart. A line longer
    // than 4 KiB closes the channel: no agent says that much.
    std::optional<std::string> read_line(std::chrono::steady_clock::time_point deadline,
                                         const std::function<bool()> &keep_waiting);
    [[nodiscard]] bool closed() const { return closed_; }

  private:
    int fd_ = -1;
    std::string buffer_;
    bool closed_ = false;
};

}  // namespace sbx::qemu
