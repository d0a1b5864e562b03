// Benchmark helper of tools/bench/fault_proxy: what the fault proxy adds to a request when
// it applies no fault. An echo server on a thread, the real fault_proxy.so loaded through
// the host's loader and prepared with API_LATENCY_MS=0 (the proxy is on the path, idle),
// and a client that times request/response round trips on one connection (directly and
// through the proxy, in alternating blocks so a slow moment hits both), and whole
// connections (connect, one round trip, close).
//   sbx-bench-proxy-round-trips PLUGIN ROUND_TRIPS CONNECTIONS [MESSAGE_BYTES]
// Prints one line per measure: NAME MEDIAN_US MEAN_US P99_US.
//   sbx-bench-proxy-round-trips PLUGIN throughput BANDWIDTH BYTES
// Echoes BYTES through a proxy prepared with UPSTREAM_BANDWIDTH=BANDWIDTH (both directions
// paced, pipelined) and through an idle one; prints NAME BITS_PER_SECOND for each.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "plugins/plugin.hpp"

namespace {

using Clock = std::chrono::steady_clock;

void no_delay(int fd) {
    const int on = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
}

// host:port -> a connected socket (or -1).
int connect_to(const std::string &host_port) {
    const auto colon = host_port.rfind(':');
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(std::stoi(host_port.substr(colon + 1))));
    ::inet_pton(AF_INET, host_port.substr(0, colon).c_str(), &address.sin_addr);
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    no_delay(fd);
    if (::connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

bool round_trip(int fd, const std::string &message, std::string &reply) {
    if (::send(fd, message.data(), message.size(), MSG_NOSIGNAL) !=
        static_cast<ssize_t>(message.size())) {
        return false;
    }
    reply.resize(message.size());
    std::size_t got = 0;
    while (got < message.size()) {
        const ssize_t n = ::recv(fd, reply.data() + got, message.size() - got, 0);
        if (n <= 0) {
            return false;
        }
        got += static_cast<std::size_t>(n);
    }
    return true;
}

class EchoServer {
  public:
    EchoServer() {
        listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t size = sizeof address;
        if (::bind(listener_, reinterpret_cast<sockaddr *>(&address), size) != 0 ||
            ::listen(listener_, 256) != 0 ||
            ::getsockname(listener_, reinterpret_cast<sockaddr *>(&address), &size) != 0) {
            std::perror("echo server");
            std::exit(1);
        }
        port_ = ntohs(address.sin_port);
        acceptor_ = std::thread([this] {
            for (;;) {
                const int fd = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
                if (fd < 0) {
                    return;
                }
                no_delay(fd);
                std::thread([fd] {
                    char buffer[65536];
                    for (ssize_t n = 0; (n = ::recv(fd, buffer, sizeof buffer, 0)) > 0;) {
                        if (::send(fd, buffer, static_cast<std::size_t>(n), MSG_NOSIGNAL) != n) {
                            break;
                        }
                    }
                    ::close(fd);
                }).detach();
            }
        });
    }
    ~EchoServer() {
        ::shutdown(listener_, SHUT_RDWR);
        acceptor_.join();
        ::close(listener_);
    }
    EchoServer(const EchoServer &) = delete;
    EchoServer &operator=(const EchoServer &) = delete;
    [[nodiscard]] std::string address() const { return "127.0.0.1:" + std::to_string(port_); }

  private:
    int listener_ = -1;
    int port_ = 0;
    std::thread acceptor_;
};

void report(const std::string &name, std::vector<double> samples_us) {
    std::sort(samples_us.begin(), samples_us.end());
    double sum = 0;
    for (const double sample : samples_us) {
        sum += sample;
    }
    const auto at = [&](double quantile) {
        return samples_us[static_cast<std::size_t>(quantile *
                                                   static_cast<double>(samples_us.size() - 1))];
    };
    std::printf("%s %.2f %.2f %.2f\n", name.c_str(), at(0.5),
                sum / static_cast<double>(samples_us.size()), at(0.99));
}

double micros_since(Clock::time_point start) {
    return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
}

// Where the target is told the upstream is, for a proxy prepared with `preset`.
std::string prepared(sbx::plugins::Instance &injector, const nlohmann::json &preset,
                     const std::string &target, nlohmann::json &state) {
    using nlohmann::json;
    const json request = {
        {"preset", preset},
        {"spec",
         {{"run_id", "bench-1"},
          {"argv", {"/bin/true"}},
          {"upstreams", {{{"name", "api"}, {"listen", "127.0.0.1:0"}, {"target", target}}}}}},
        {"run_id", "bench-1"}};
    const json response = json::parse(injector.prepare(request.dump()));
    state = response.value("state", json());
    return response["spec"]["env"].value("SANDBOX_UPSTREAM_API", "");
}

// Bits per second of `bytes` echoed through `address`: sent by a thread, read back here.
double echo_rate(const std::string &address, std::size_t bytes) {
    const int fd = connect_to(address);
    if (fd < 0) {
        return 0;
    }
    const auto start = Clock::now();
    std::thread sender([fd, bytes] {
        const std::string chunk(65536, 'b');
        for (std::size_t sent = 0; sent < bytes;) {
            const ssize_t put =
                ::send(fd, chunk.data(), std::min(chunk.size(), bytes - sent), MSG_NOSIGNAL);
            if (put <= 0) {
                return;
            }
            sent += static_cast<std::size_t>(put);
        }
    });
    char buffer[65536];
    std::size_t got = 0;
    for (ssize_t n = 0; got < bytes && (n = ::recv(fd, buffer, sizeof buffer, 0)) > 0;) {
        got += static_cast<std::size_t>(n);
    }
    const double seconds = micros_since(start) / 1e6;
    sender.join();
    ::close(fd);
    return static_cast<double>(got) * 8 / seconds;
}

int throughput(const char *plugin_path, const std::string &bandwidth, std::size_t bytes) {
    using nlohmann::json;
    const EchoServer echo;
    const auto plugin = sbx::plugins::load_plugin(plugin_path);
    const auto injector = plugin->create(json::object());
    json paced_state;
    json idle_state;
    const std::string paced =
        prepared(*injector, {{"SCENARIO_NAME", "bench-paced"}, {"UPSTREAM_BANDWIDTH", bandwidth}},
                 echo.address(), paced_state);
    const std::string idle =
        prepared(*injector, {{"SCENARIO_NAME", "bench-idle"}, {"API_LATENCY_MS", "0"}},
                 echo.address(), idle_state);
    std::printf("paced_bps %.0f\n", echo_rate(paced, bytes));
    std::printf("idle_bps %.0f\n", echo_rate(idle, bytes));
    injector->teardown(paced_state.dump());
    injector->teardown(idle_state.dump());
    return 0;
}

}  // namespace

int main(int argc, char **argv) {
    if (argc < 4) {
        std::cerr << "usage: sbx-bench-proxy-round-trips PLUGIN ROUND_TRIPS CONNECTIONS "
                     "[MESSAGE_BYTES]\n";
        return 2;
    }
    using nlohmann::json;
    if (std::string(argv[2]) == "throughput") {
        return throughput(argv[1], argv[3], argc > 4 ? std::stoul(argv[4]) : 1U << 20U);
    }
    const int round_trips = std::max(10, std::stoi(argv[2]));
    const int connections = std::max(10, std::stoi(argv[3]));
    const std::string message(argc > 4 ? std::stoul(argv[4]) : 64, 'x');

    const EchoServer echo;
    const auto plugin = sbx::plugins::load_plugin(argv[1]);
    const auto injector = plugin->create(json::object());
    const json request = {
        {"preset", {{"SCENARIO_NAME", "bench"}, {"API_LATENCY_MS", "0"}}},
        {"spec",
         {{"run_id", "bench-1"},
          {"argv", {"/bin/true"}},
          {"upstreams",
           {{{"name", "api"}, {"listen", "127.0.0.1:0"}, {"target", echo.address()}}}}}},
        {"run_id", "bench-1"}};
    const json response = json::parse(injector->prepare(request.dump()));
    const std::string proxied = response["spec"]["env"].value("SANDBOX_UPSTREAM_API", "");

    std::vector<double> direct_us;
    std::vector<double> proxy_us;
    {
        const int direct = connect_to(echo.address());
        const int through = connect_to(proxied);
        std::string reply;
        for (int warm = 0; warm < 100; ++warm) {
            round_trip(direct, message, reply);
            round_trip(through, message, reply);
        }
        // Alternating blocks of 100, so noise lands on both.
        for (int done = 0; done < round_trips;) {
            const int block = std::min(100, round_trips - done);
            for (int i = 0; i < block; ++i) {
                const auto start = Clock::now();
                if (!round_trip(direct, message, reply)) {
                    std::cerr << "direct round trip failed\n";
                    return 1;
                }
                direct_us.push_back(micros_since(start));
            }
            for (int i = 0; i < block; ++i) {
                const auto start = Clock::now();
                if (!round_trip(through, message, reply) || reply != message) {
                    std::cerr << "round trip through the proxy failed\n";
                    return 1;
                }
                proxy_us.push_back(micros_since(start));
            }
            done += block;
        }
        ::close(direct);
        ::close(through);
    }
    std::vector<double> direct_connection_us;
    std::vector<double> proxy_connection_us;
    std::string reply;
    for (int i = 0; i < connections; ++i) {
        for (const bool via_proxy : {false, true}) {
            const auto start = Clock::now();
            const int fd = connect_to(via_proxy ? proxied : echo.address());
            if (fd < 0 || !round_trip(fd, message, reply)) {
                std::cerr << "connection " << i << " failed\n";
                return 1;
            }
            ::close(fd);
            (via_proxy ? proxy_connection_us : direct_connection_us).push_back(micros_since(start));
        }
    }
    report("direct_round_trip", direct_us);
    report("proxy_round_trip", proxy_us);
    report("direct_connection", direct_connection_us);
    report("proxy_connection", proxy_connection_us);
    injector->teardown(response.value("state", json()).dump());
    return 0;
}
