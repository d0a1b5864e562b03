// Upstreams of a run in a network namespace, end to end: the real binary runs run-scenarios
// with the `network` injector before `fault_proxy`, and a step that fetches a page with curl
// from a real HTTP upstream on the host's loopback at $SANDBOX_UPSTREAM_API. Inside the
// namespace 127.0.0.1 is the namespace's own loopback, so the upstream is reachable only
// through the proxy the fault_proxy injector puts there: under NETWORK_LATENCY_MS every
// request succeeds and takes the added latency; under network_partition every one fails.
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "cli_fixture.hpp"
#include "loopback_listener.hpp"

namespace {

using nlohmann::json;

// An HTTP/1.0 server on 127.0.0.1 (a port the kernel chooses) that answers every request
// with 200 and "ok", one connection at a time.
class HttpUpstream {
  public:
    HttpUpstream() {
        server_ = std::thread([this] { serve(); });
    }
    ~HttpUpstream() {
        listener_.shut_down();
        server_.join();
    }
    HttpUpstream(const HttpUpstream &) = delete;
    HttpUpstream &operator=(const HttpUpstream &) = delete;

    [[nodiscard]] std::string address() const { return listener_.address(); }
    [[nodiscard]] int answered() const { return answered_.load(); }

  private:
    void serve() {
        for (;;) {
            const int fd = ::accept4(listener_.fd(), nullptr, nullptr, SOCK_CLOEXEC);
            if (fd < 0) {
                return;  // shut down
            }
            const timeval patience{5, 0};
            ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &patience, sizeof patience);
            std::string request;
            char buffer[2048];
            for (ssize_t got = 0; request.find("\r\n\r\n") == std::string::npos &&
                                  (got = ::recv(fd, buffer, sizeof buffer, 0)) > 0;) {
                request.append(buffer, static_cast<size_t>(got));
            }
            if (request.find("\r\n\r\n") != std::string::npos) {
                static const std::string reply =
                    "HTTP/1.0 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok";
                if (::send(fd, reply.data(), reply.size(), MSG_NOSIGNAL) ==
                    static_cast<ssize_t>(reply.size())) {
                    ++answered_;
                }
            }
            ::close(fd);
        }
    }

    sbx::test::LoopbackListener listener_;
    std::atomic<int> answered_{0};
    std::thread server_;
};

class UpstreamNamespaces : public sbx::test::CliTest {};

TEST_F(UpstreamNamespaces, CurlReachesItsUpstreamUnderLatencyAndNotThroughAPartition) {
    // Any user: without root the namespace is owned by a user namespace of the injector's.
    const HttpUpstream upstream;
    // curl prints how long its connection took and the whole exchange (connect, request,
    // reply), in seconds. Fault scenarios run --repetitions (2) times, not the default 13.
    write_settings(R"(
robustness_repetitions: 1
injectors: [network, fault_proxy]
scenarios:
  - {name: normal}
  - name: high_latency
    preset: {NETWORK_LATENCY_MS: 50}
  - name: network_partition
    preset: {FAILURE_MODES: network_partition}
workflows:
  - name: curl-api
    upstreams:
      - {name: api, listen: "127.0.0.1:0", target: ")" +
                   upstream.address() + R"("}
    steps:
      - run: [/bin/sh, -c, 'curl -sS -f --max-time 5 -o /dev/null -w "%{time_connect} %{time_total}" "http://$SANDBOX_UPSTREAM_API/"']
)");
    const auto result = runner({"run-scenarios", "curl-api", "--repetitions", "2", "--seed", "1",
                                "--workers", "2", "--json"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const json summary = json::parse(result.out);
    const auto &scenarios = summary["scenarios"];
    EXPECT_DOUBLE_EQ(scenarios["normal"]["roi"].get<double>(), 1.0) << result.out;
    EXPECT_DOUBLE_EQ(scenarios["high_latency"]["roi"].get<double>(), 1.0) << result.out;
    EXPECT_DOUBLE_EQ(scenarios["network_partition"]["roi"].get<double>(), 0.0) << result.out;
    EXPECT_EQ(summary["worst_scenario"], "network_partition");
    // Both on-runs of normal and of high_latency were answered; none through the partition.
    EXPECT_EQ(upstream.answered(), 4);

    // curl's own timing: under latency the handshake took the added 50 ms and the exchange
    // twice that (the handshake and the request each make a round trip).
    const auto timings = query(
        "SELECT p.name, json_extract(s.result, '$.stdout'), json_extract(s.result, '$.stderr') "
        "FROM runs r JOIN steps s ON s.run_id = r.id JOIN presets p ON p.id = r.preset_id "
        "WHERE r.flag = 'on' ORDER BY p.name, r.id");
    ASSERT_EQ(timings.size(), 6U);
    for (const auto &row : timings) {
        SCOPED_TRACE(row[0] + ": stdout '" + row[1] + "', stderr '" + row[2] + "'");
        if (row[0] == "high_latency") {
            const auto space = row[1].find(' ');
            ASSERT_NE(space, std::string::npos);
            EXPECT_GE(std::stod(row[1].substr(0, space)), 0.050);
            EXPECT_GE(std::stod(row[1].substr(space + 1)), 0.100);
        } else if (row[0] == "network_partition") {
            // The real upstream's address names the namespace's own loopback: refused.
            EXPECT_NE(row[2].find("Failed to connect"), std::string::npos);
        }
    }
}

TEST_F(UpstreamNamespaces, NetworkListedAfterFaultProxyIsRefusedAtItsLineBeforeAnyRun) {
    write_settings(R"(
injectors: [fault_proxy, network]
scenarios:
  - name: high_latency
    preset: {NETWORK_LATENCY_MS: 5}
workflows:
  - name: curl-api
    upstreams:
      - {name: api, listen: "127.0.0.1:0", target: "127.0.0.1:9"}
    steps:
      - run: [/bin/true]
)");
    const auto result = runner({"run-scenarios", "curl-api", "--repetitions", "1", "--json"});
    EXPECT_EQ(result.exit_code, 2) << result.err;
    EXPECT_NE(result.err.find(settings_ + ":2:13: injectors lists fault_proxy before network; "
                                          "list network first"),
              std::string::npos)
        << result.err;
    EXPECT_FALSE(std::filesystem::exists(db_path()) &&
                 query("SELECT count(*) FROM runs")[0][0] != "0")
        << "nothing ran";
}

}  // namespace
