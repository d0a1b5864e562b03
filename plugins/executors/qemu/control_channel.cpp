// A line protocol over a stream socket, with deadlines: a guest that hangs must never hang
// the host.
#include "control_channel.hpp"

#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
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

bool ControlChannel::connect(const std::string &socket_path, Clock::time_point deadline,
                             const std::function<bool()> &keep_trying) {
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    if (socket_path.size() >= sizeof address.sun_path) {
        return false;
    }
    std::memcpy(address.sun_path, socket_path.c_str(), socket_path.size() + 1);
    while (Clock::now() < deadline && keep_trying()) {
        fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd_ < 0) {
            return false;
        }
        if (::connect(fd_, reinterpret_cast<const sockaddr *>(&address), sizeof address) == 0) {
            return true;
        }
        ::close(fd_);
        fd_ = -1;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
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
            } else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
                closed_ = true;
            }
        }
    }
}

}  // namespace sbx::qemu
