// Shared fixture of the fault_proxy injector tests: the real fault_proxy.so loaded through
// the host's plugin loader, a real upstream (a TCP server on a thread of the test: echo,
// a fixed payload, or an endless stream) and real clients that connect through the proxy.
#pragma once

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "command.hpp"
#include "plugins/plugin.hpp"

namespace sbx::injectors_test {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

inline std::shared_ptr<plugins::Plugin> fault_proxy_plugin() {
    static const auto plugin = plugins::load_plugin(SBX_FAULT_PROXY_INJECTOR_PATH);
    return plugin;
}

// The payload byte at `offset` of a stream: a fixed pseudo-random pattern.
inline char pattern_byte(std::size_t offset) {
    std::uint64_t x = offset * 0x9e3779b97f4a7c15ULL;
    x ^= x >> 29U;
    return static_cast<char>(x & 0xffU);
}

// A TCP server on 127.0.0.1 (port chosen by the kernel), one thread per connection.
class TestUpstream {
  public:
    enum class Mode {
        echo,     // sends back what it reads, until the client closes
        payload,  // sends `payload_bytes` of pattern_byte, then closes
        endless,  // sends pattern bytes until the connection breaks
        sink,     // reads until the client closes, counting bytes and timing them
    };

    explicit TestUpstream(Mode mode, std::size_t payload_bytes = 0)
        : mode_(mode), payload_bytes_(payload_bytes) {
        listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t size = sizeof address;
        if (::bind(listener_, reinterpret_cast<sockaddr *>(&address), size) != 0 ||
            ::listen(listener_, 128) != 0 ||
            ::getsockname(listener_, reinterpret_cast<sockaddr *>(&address), &size) != 0) {
            ADD_FAILURE() << "the test upstream cannot listen: " << std::strerror(errno);
        }
        port_ = ntohs(address.sin_port);
        acceptor_ = std::thread([this] { accept_loop(); });
    }
    ~TestUpstream() {
        stopping_ = true;
        ::shutdown(listener_, SHUT_RDWR);
        acceptor_.join();
        {
            const std::lock_guard<std::mutex> lock(mutex_);
            for (const int fd : open_) {
                ::shutdown(fd, SHUT_RDWR);
            }
        }
        for (auto &worker : workers_) {
            worker.join();
        }
        ::close(listener_);
    }
    TestUpstream(const TestUpstream &) = delete;
    TestUpstream &operator=(const TestUpstream &) = delete;

    [[nodiscard]] std::string address() const { return "127.0.0.1:" + std::to_string(port_); }
    [[nodiscard]] int accepted() const { return accepted_.load(); }
    // Connections whose handler has seen them end (EOF, reset, or a failed send).
    [[nodiscard]] int ended() const { return ended_.load(); }
    // Sink: bytes read so far, and the seconds from the first byte read to the last.
    [[nodiscard]] std::size_t sunk() const { return sunk_.load(); }
    [[nodiscard]] double sink_seconds() const {
        const std::lock_guard<std::mutex> lock(mutex_);
        return std::chrono::duration<double>(last_byte_ - first_byte_).count();
    }
    // When the sink read its last byte so far.
    [[nodiscard]] std::chrono::steady_clock::time_point last_byte() const {
        const std::lock_guard<std::mutex> lock(mutex_);
        return last_byte_;
    }

  private:
    void accept_loop() {
        while (!stopping_) {
            const int fd = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
            if (fd < 0) {
                if (stopping_ || (errno != EINTR && errno != ECONNABORTED)) {
                    return;
                }
                continue;
            }
            ++accepted_;
            const std::lock_guard<std::mutex> lock(mutex_);
            open_.push_back(fd);
            workers_.emplace_back([this, fd] { serve(fd); });
        }
    }

    void serve(int fd) {
        const int on = 1;
        ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
        std::vector<char> buffer(16384);
        if (mode_ == Mode::sink) {
            for (ssize_t got = 0; (got = ::recv(fd, buffer.data(), buffer.size(), 0)) > 0;) {
                const auto now = std::chrono::steady_clock::now();
                const std::lock_guard<std::mutex> lock(mutex_);
                if (sunk_ == 0) {
                    first_byte_ = now;
                }
                last_byte_ = now;
                sunk_ += static_cast<std::size_t>(got);
            }
        } else if (mode_ == Mode::echo) {
            for (;;) {
                const ssize_t got = ::recv(fd, buffer.data(), buffer.size(), 0);
                if (got <= 0 ||
                    ::send(fd, buffer.data(), static_cast<std::size_t>(got), MSG_NOSIGNAL) != got) {
                    break;
                }
            }
        } else {
            std::size_t offset = 0;
            const std::size_t total = mode_ == Mode::payload ? payload_bytes_ : SIZE_MAX;
            while (offset < total && !stopping_) {
                const std::size_t chunk = std::min(buffer.size(), total - offset);
                for (std::size_t i = 0; i < chunk; ++i) {
                    buffer[i] = pattern_byte(offset + i);
                }
                const ssize_t put = ::send(fd, buffer.data(), chunk, MSG_NOSIGNAL);
                if (put <= 0) {
                    break;
                }
                offset += static_cast<std::size_t>(put);
            }
            ::shutdown(fd, SHUT_WR);
            while (::recv(fd, buffer.data(), buffer.size(), 0) > 0) {
            }
        }
        ++ended_;
        const std::lock_guard<std::mutex> lock(mutex_);
        open_.erase(std::remove(open_.begin(), open_.end(), fd), open_.end());
        ::close(fd);
    }

    Mode mode_;
    std::size_t payload_bytes_;
    int listener_ = -1;
    int port_ = 0;
    std::atomic<bool> stopping_{false};
    std::atomic<int> accepted_{0};
    std::atomic<int> ended_{0};
    std::atomic<std::size_t> sunk_{0};
    std::chrono::steady_clock::time_point first_byte_{};
    std::chrono::steady_clock::time_point last_byte_{};
    mutable std::mutex mutex_;
    std::vector<int> open_;
    std::vector<std::thread> workers_;
    std::thread acceptor_;
};

// A client connection; closed when it goes out of scope.
class Client {
  public:
    // Connects to "127.0.0.1:PORT" (blocking, with a 5 s receive timeout).
    explicit Client(const std::string &host_port) {
        const auto colon = host_port.rfind(':');
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_port =
            htons(static_cast<std::uint16_t>(std::stoi(host_port.substr(colon + 1))));
        ::inet_pton(AF_INET, host_port.substr(0, colon).c_str(), &address.sin_addr);
        fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        const int on = 1;
        ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
        const timeval five_seconds{5, 0};
        ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &five_seconds, sizeof five_seconds);
        connected_ = ::connect(fd_, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0;
        connect_errno_ = connected_ ? 0 : errno;
    }
    ~Client() { ::close(fd_); }
    Client(const Client &) = delete;
    Client &operator=(const Client &) = delete;

    [[nodiscard]] bool connected() const { return connected_; }
    [[nodiscard]] int connect_errno() const { return connect_errno_; }
    [[nodiscard]] int fd() const { return fd_; }

    // What one request/response exchange met.
    enum class Outcome { ok, reset, closed, timeout, wrong };
    // Sends `request` and reads until as many bytes came back (the echo upstream).
    Outcome exchange(const std::string &request) {
        if (::send(fd_, request.data(), request.size(), MSG_NOSIGNAL) !=
            static_cast<ssize_t>(request.size())) {
            return errno == ECONNRESET || errno == EPIPE ? Outcome::reset : Outcome::closed;
        }
        std::string reply;
        char buffer[4096];
        while (reply.size() < request.size()) {
            const ssize_t got = ::recv(fd_, buffer, sizeof buffer, 0);
            if (got == 0) {
                return Outcome::closed;
            }
            if (got < 0) {
                if (errno == EAGAIN || errno == EWOULDBLOCK) {
                    return Outcome::timeout;
                }
                return errno == ECONNRESET ? Outcome::reset : Outcome::closed;
            }
            reply.append(buffer, static_cast<std::size_t>(got));
        }
        return reply == request ? Outcome::ok : Outcome::wrong;
    }
    // Reads until the end of the stream (or `limit` bytes); errno_out gets the error that
    // ended it, 0 for a clean end.
    std::string read_all(std::size_t limit, int &errno_out) {
        std::string data;
        char buffer[16384];
        errno_out = 0;
        while (data.size() < limit) {
            const ssize_t got = ::recv(fd_, buffer, sizeof buffer, 0);
            if (got <= 0) {
                errno_out = got < 0 ? errno : 0;
                break;
            }
            data.append(buffer, static_cast<std::size_t>(got));
        }
        return data;
    }

  private:
    int fd_ = -1;
    bool connected_ = false;
    int connect_errno_ = 0;
};

// A prepared run: torn down when it goes out of scope, as the host's InjectionScope does.
class PreparedRun {
  public:
    PreparedRun(plugins::Instance &injector, const json &request)
        : injector_(&injector), response_(json::parse(injector.prepare(request.dump()))) {}
    ~PreparedRun() { teardown(); }
    PreparedRun(const PreparedRun &) = delete;
    PreparedRun &operator=(const PreparedRun &) = delete;

    [[nodiscard]] const json &response() const { return response_; }
    [[nodiscard]] json spec() const { return response_.value("spec", json::object()); }
    // Where the target is told the upstream NAME is.
    [[nodiscard]] std::string upstream(const std::string &variable = "SANDBOX_UPSTREAM_API") const {
        return spec()["env"].value(variable, "");
    }
    void teardown() {
        if (injector_ != nullptr) {
            injector_->teardown(response_.value("state", json()).dump());
            injector_ = nullptr;
        }
    }

  private:
    plugins::Instance *injector_;
    json response_;
};

class FaultProxyTest : public ::testing::Test {
  protected:
    void SetUp() override { state_dir_ = test::make_temp_dir("sbx-proxy-state-"); }
    void TearDown() override {
        std::error_code ec;
        std::filesystem::remove_all(state_dir_, ec);
    }

    static std::unique_ptr<plugins::Instance> injector(const json &config = json::object()) {
        return fault_proxy_plugin()->create(config);
    }

    // The prepare request the host sends for a step of a workflow whose one upstream `api`
    // listens on `listen` and forwards to `target`. Each test gives its presets a
    // SCENARIO_NAME of its own: schedules are per preset for the life of the process.
    [[nodiscard]] json request(const json &preset, const std::string &target,
                               const std::string &listen = "127.0.0.1:0") const {
        return {{"preset", preset},
                {"spec",
                 {{"run_id", "test-1"},
                  {"argv", {"/bin/true"}},
                  {"env", json::object()},
                  {"upstreams", {{{"name", "api"}, {"listen", listen}, {"target", target}}}}}},
                {"run_id", "test-1"},
                {"state_dir", state_dir_}};
    }

    std::string state_dir_;
};

inline double elapsed_ms(Clock::time_point since) {
    return std::chrono::duration<double, std::milli>(Clock::now() - since).count();
}

}  // namespace sbx::injectors_test
