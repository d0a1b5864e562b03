// Measures the network from inside a sandbox, for the network injector's tests. Run by the
// local executor in the namespace the injector prepared; prints one JSON object.
//   rtt COUNT                 UDP echo over loopback: round-trip times in ms
//   loss COUNT QUIET_MS       COUNT numbered UDP datagrams to itself: which arrived, how often
//   bandwidth BYTES           one TCP transfer over loopback: bits per second
//   connect HOST:PORT...      connect() to each (1 s timeout), plus a loopback TCP echo
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

[[noreturn]] void die(const std::string &what) {
    std::cout << json{{"error", what + ": " + std::strerror(errno)}}.dump() << "\n";
    std::exit(1);
}

sockaddr_in loopback(std::uint16_t port) {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return address;
}

// A socket of `type` bound to 127.0.0.1 on a free port; `port` receives it.
int bound_socket(int type, std::uint16_t &port) {
    const int fd = ::socket(AF_INET, type | SOCK_CLOEXEC, 0);
    sockaddr_in address = loopback(0);
    if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0) {
        die("bind");
    }
    socklen_t length = sizeof address;
    ::getsockname(fd, reinterpret_cast<sockaddr *>(&address), &length);
    port = ntohs(address.sin_port);
    return fd;
}

bool readable_within(int fd, int timeout_ms) {
    pollfd entry{fd, POLLIN, 0};
    return ::poll(&entry, 1, timeout_ms) > 0;
}

json round_trips(int count) {
    std::uint16_t server_port = 0;
    const int server = bound_socket(SOCK_DGRAM, server_port);
    std::thread echo([server] {
        char buffer[64];
        for (;;) {
            sockaddr_in from{};
            socklen_t length = sizeof from;
            const ssize_t n = ::recvfrom(server, buffer, sizeof buffer, 0,
                                         reinterpret_cast<sockaddr *>(&from), &length);
            if (n <= 0 || std::string(buffer, static_cast<std::size_t>(n)) == "stop") {
                return;
            }
            ::sendto(server, buffer, static_cast<std::size_t>(n), 0,
                     reinterpret_cast<sockaddr *>(&from), length);
        }
    });
    std::uint16_t client_port = 0;
    const int client = bound_socket(SOCK_DGRAM, client_port);
    const sockaddr_in to = loopback(server_port);
    json rtts = json::array();
    int lost = 0;
    for (int i = 0; i < count; ++i) {
        const std::string message = "ping" + std::to_string(i);
        const auto sent = Clock::now();
        ::sendto(client, message.data(), message.size(), 0, reinterpret_cast<const sockaddr *>(&to),
                 sizeof to);
        bool answered = false;
        while (!answered && readable_within(client, 3000)) {
            char buffer[64];
            const ssize_t n = ::recv(client, buffer, sizeof buffer, 0);
            answered = n > 0 && std::string(buffer, static_cast<std::size_t>(n)) == message;
        }
        if (answered) {
            rtts.push_back(ms_since(sent));
        } else {
            ++lost;
        }
    }
    ::sendto(client, "stop", 4, 0, reinterpret_cast<const sockaddr *>(&to), sizeof to);
    echo.join();
    std::vector<double> sorted = rtts.get<std::vector<double>>();
    std::sort(sorted.begin(), sorted.end());
    const double median = sorted.empty() ? -1 : sorted[sorted.size() / 2];
    return {{"rtt_ms", rtts}, {"median_ms", median}, {"lost", lost}};
}

json datagrams(int count, int quiet_ms) {
    std::uint16_t port = 0;
    const int receiver = bound_socket(SOCK_DGRAM, port);
    const int buffer_bytes = 8 << 20;
    ::setsockopt(receiver, SOL_SOCKET, SO_RCVBUF, &buffer_bytes, sizeof buffer_bytes);
    std::uint16_t sender_port = 0;
    const int sender = bound_socket(SOCK_DGRAM, sender_port);
    const sockaddr_in to = loopback(port);
    for (std::uint32_t i = 0; i < static_cast<std::uint32_t>(count); ++i) {
        ::sendto(sender, &i, sizeof i, 0, reinterpret_cast<const sockaddr *>(&to), sizeof to);
    }
    std::vector<int> times(static_cast<std::size_t>(count), 0);
    int received = 0;
    while (readable_within(receiver, quiet_ms)) {
        std::uint32_t number = 0;
        if (::recv(receiver, &number, sizeof number, 0) == sizeof number && number < times.size()) {
            ++times[number];
            ++received;
        }
    }
    json arrived = json::array();
    for (std::size_t i = 0; i < times.size(); ++i) {
        if (times[i] > 0) {
            arrived.push_back(i);
        }
    }
    return {
        {"sent", count}, {"received", received}, {"unique", arrived.size()}, {"arrived", arrived}};
}

json bulk_transfer(long long bytes) {
    std::uint16_t port = 0;
    const int listener = bound_socket(SOCK_STREAM, port);
    ::listen(listener, 1);
    Clock::time_point last_byte;
    long long got = 0;
    std::thread sink([&] {
        const int connection = ::accept(listener, nullptr, nullptr);
        std::vector<char> buffer(1 << 16);
        for (ssize_t n; (n = ::read(connection, buffer.data(), buffer.size())) > 0;) {
            got += n;
            last_byte = Clock::now();
        }
        ::close(connection);
    });
    const int client = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    const sockaddr_in to = loopback(port);
    const auto start = Clock::now();
    if (::connect(client, reinterpret_cast<const sockaddr *>(&to), sizeof to) != 0) {
        die("connect");
    }
    std::vector<char> chunk(1 << 16, 'x');
    for (long long left = bytes; left > 0;) {
        const ssize_t n = ::write(client, chunk.data(),
                                  static_cast<std::size_t>(std::min<long long>(left, 1 << 16)));
        if (n <= 0) {
            die("write");
        }
        left -= n;
    }
    ::shutdown(client, SHUT_WR);
    sink.join();
    const double seconds = std::chrono::duration<double>(last_byte - start).count();
    return {{"bytes", got},
            {"seconds", seconds},
            {"bits_per_s", seconds > 0 ? static_cast<double>(got) * 8 / seconds : 0}};
}

// connect() with a timeout; "" on success, else the error.
std::string try_connect(const std::string &host, std::uint16_t port) {
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_port = htons(port);
    if (::inet_pton(AF_INET, host.c_str(), &to.sin_addr) != 1) {
        return "not an IPv4 address";
    }
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    std::string error;
    if (::connect(fd, reinterpret_cast<const sockaddr *>(&to), sizeof to) != 0) {
        if (errno != EINPROGRESS) {
            error = std::strerror(errno);
        } else {
            pollfd entry{fd, POLLOUT, 0};
            if (::poll(&entry, 1, 1000) <= 0) {
                error = "timed out";
            } else {
                int status = 0;
                socklen_t length = sizeof status;
                ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &status, &length);
                error = status == 0 ? "" : std::strerror(status);
            }
        }
    }
    if (error.empty()) {
        // Prove the connection carries data: the tests' listeners echo.
        pollfd entry{fd, POLLOUT, 0};
        ::poll(&entry, 1, 1000);
        ::fcntl(fd, F_SETFL, 0);
        char reply[4] = {};
        if (::write(fd, "ping", 4) != 4 || !readable_within(fd, 2000) ||
            ::read(fd, reply, sizeof reply) != 4 || std::string(reply, 4) != "ping") {
            error = "connected, but no echo";
        }
    }
    ::close(fd);
    return error;
}

bool loopback_echo() {
    std::uint16_t port = 0;
    const int listener = bound_socket(SOCK_STREAM, port);
    ::listen(listener, 1);
    std::thread echo([listener] {
        const int connection = ::accept(listener, nullptr, nullptr);
        char buffer[4];
        if (::read(connection, buffer, 4) == 4) {
            (void)::write(connection, buffer, 4);
        }
        ::close(connection);
    });
    const bool ok = try_connect("127.0.0.1", port).empty();
    echo.join();
    return ok;
}

}  // namespace

int main(int argc, char **argv) {
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (args.size() >= 2 && args[0] == "rtt") {
        std::cout << round_trips(std::stoi(args[1])).dump() << "\n";
    } else if (args.size() >= 3 && args[0] == "loss") {
        std::cout << datagrams(std::stoi(args[1]), std::stoi(args[2])).dump() << "\n";
    } else if (args.size() >= 2 && args[0] == "bandwidth") {
        std::cout << bulk_transfer(std::stoll(args[1])).dump() << "\n";
    } else if (!args.empty() && args[0] == "connect") {
        json result = {{"loopback_echo", loopback_echo()}, {"targets", json::object()}};
        for (std::size_t i = 1; i < args.size(); ++i) {
            const auto colon = args[i].rfind(':');
            result["targets"][args[i]] =
                try_connect(args[i].substr(0, colon),
                            static_cast<std::uint16_t>(std::stoi(args[i].substr(colon + 1))));
        }
        std::cout << result.dump() << "\n";
    } else {
        std::cerr << "usage: sbx_net_probe rtt N | loss N QUIET_MS | bandwidth BYTES | "
                     "connect HOST:PORT...\n";
        return 2;
    }
    return 0;
}
