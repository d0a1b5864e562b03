// A line protocol over a stream socket, with deadlines: a guest that hangs must never hang
// the host.
#include "control_channel.hpp"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

namespace sbx::qemu {
namespace {

using Clock = std::chrono::steady_clock;

int milliseconds_until(Clock::time_point deadline) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    return left <= 0 ? 0 : static_cast<int>(std::min<long long>(left, 100));
}

}  // namespace

ControlChannel::~ControlChannel() {
    if (fd_ >= 0) {
        ::close(fd_);
    }
}

bool ControlChannel::send_line(const std::string &line) {
    const std::string text = line + "\n";
    size_t done = 0;
    while (done < text.size()) {
        const ssize_t wrote = ::send(fd_, text.data() + done, text.size() - done, MSG_NOSIGNAL);
        if (wrote < 0 && errno == EINTR) {
            continue;
        }
        if (wrote <= 0) {
            return false;
        }
        done += static_cast<size_t>(wrote);
    }
    return true;
}

std::optional<std::string> ControlChannel::read_line(Clock::time_point deadline,
                                                     const std::function<bool()> &keep_waiting) {
    while (true) {
        if (const size_t end = buffer_.find('\n'); end != std::string::npos) {
            std::string line = buffer_.substr(0, end);
            buffer_.erase(0, end + 1);
            if (!line.empty() && line.back() == '\r') {
                line.pop_back();
            }
            return line;
        }
        if (closed_ || fd_ < 0 || Clock::now() >= deadline || !keep_waiting()) {
            return std::nullopt;
        }
        pollfd wanted{fd_, POLLIN, 0};
        const int ready = ::poll(&wanted, 1, milliseconds_until(deadline));
        if (ready < 0 && errno != EINTR) {
            closed_ = true;
        } else if (ready > 0) {
            char chunk[4096];
            const ssize_t got = ::recv(fd_, chunk, sizeof chunk, 0);
            if (got > 0) {
                buffer_.append(chunk, static_cast<size_t>(got));
                constexpr size_t kMaxLine = 4096;
                if (buffer_.size() > kMaxLine && buffer_.find('\n') == std::string::npos) {
                    closed_ = true;
                }
            } else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
                closed_ = true;
            }
        }
    }
}

}  // namespace sbx::qemu
