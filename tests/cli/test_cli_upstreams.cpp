// Workflows with `upstreams:` end to end: the real binary runs run-scenarios with the
// fault_proxy injector, a target that talks to an upstream (an echo server on a thread of
// this test) at SANDBOX_UPSTREAM_API, and a flaky_upstream scenario that resets 1 of every
// 2 connections: its ROI is exactly 0.5, whatever the order the workers run it in, while
// normal (no proxy: the target is told the real upstream) stays 1.0.
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>
#include <vector>

#include "cli_fixture.hpp"
#include "loopback_listener.hpp"

namespace {

using nlohmann::json;

// An echo server on 127.0.0.1 (a port the kernel chooses), one thread per connection.
class EchoUpstream {
  public:
    EchoUpstream() {
        acceptor_ = std::thread([this] {
            for (;;) {
                const int fd = ::accept4(listener_.fd(), nullptr, nullptr, SOCK_CLOEXEC);
                if (fd < 0) {
                    return;  // shut down
                }
                ++accepted_;
                const std::lock_guard<std::mutex> lock(mutex_);
                workers_.emplace_back([fd] {
                    char buffer[4096];
                    for (ssize_t got = 0; (got = ::recv(fd, buffer, sizeof buffer, 0)) > 0;) {
                        if (::send(fd, buffer, static_cast<size_t>(got), MSG_NOSIGNAL) != got) {
                            break;
                        }
                    }
                    ::close(fd);
                });
            }
        });
    }
    ~EchoUpstream() {
        listener_.shut_down();
        acceptor_.join();
        for (auto &worker : workers_) {
            worker.join();  // each ends when its client (a finished target) has closed
        }
    }
    EchoUpstream(const EchoUpstream &) = delete;
    EchoUpstream &operator=(const EchoUpstream &) = delete;

    [[nodiscard]] std::string address() const { return listener_.address(); }
    [[nodiscard]] int accepted() const { return accepted_.load(); }

  private:
    sbx::test::LoopbackListener listener_;
    std::atomic<int> accepted_{0};
    std::mutex mutex_;
    std::vector<std::thread> workers_;
    std::thread acceptor_;
};

class UpstreamsCommand : public sbx::test::CliTest {};

TEST_F(UpstreamsCommand, FlakyUpstreamLowersRoiThroughTheProxyNormalStaysWhole) {
    const EchoUpstream upstream;
    // The step sends one line to its upstream and passes when the same line comes back;
    // a reset connection makes `read` fail. Fault scenarios run --repetitions times here,
    // not the default 13, so that the sums below are exact.
    write_settings(R"(
robustness_repetitions: 1
injectors: [fault_proxy]
plugins:
  fault_proxy: {seed: 4}
scenarios:
  - {name: normal}
  - name: flaky_upstream
    preset: {FAILURE_MODES: flaky_upstream, UPSTREAM_FAILURES: 1, UPSTREAM_REQUESTS: 2}
workflows:
  - name: api-client
    upstreams:
      - {name: api, listen: "127.0.0.1:0", target: ")" +
                   upstream.address() + R"("}
    steps:
      - run: [/bin/bash, -c, 'exec 3<>"/dev/tcp/${SANDBOX_UPSTREAM_API%:*}/${SANDBOX_UPSTREAM_API##*:}" && echo "ping $SCENARIO_NAME" >&3 && read -r -t 5 reply <&3 && test "$reply" = "ping $SCENARIO_NAME"']
)");
    const auto result = runner({"run-scenarios", "api-client", "--repetitions", "4", "--seed", "1",
                                "--workers", "2", "--json"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const json summary = json::parse(result.out);
    const auto &scenarios = summary["scenarios"];
    EXPECT_DOUBLE_EQ(scenarios["normal"]["roi"].get<double>(), 1.0);
    EXPECT_DOUBLE_EQ(scenarios["normal"]["roi_delta"].get<double>(), 0.0);
    // 4 connections, 1 of every 2 reset: exactly 2 runs fail.
    EXPECT_DOUBLE_EQ(scenarios["flaky_upstream"]["roi"].get<double>(), 0.5);
    EXPECT_DOUBLE_EQ(scenarios["flaky_upstream"]["roi_off"].get<double>(), 1.0);
    EXPECT_DOUBLE_EQ(scenarios["flaky_upstream"]["roi_delta"].get<double>(), -0.5);
    EXPECT_EQ(summary["worst_scenario"], "flaky_upstream");
    EXPECT_EQ(summary["tips"], json({"flaky_upstream: add retries or fallback logic"}));
    // Every passing on-run reached the upstream: normal's directly, flaky_upstream's through
    // the proxy.
    EXPECT_GE(upstream.accepted(), 6);
    // The failures say what the target met.
    const auto failed = query(
        "SELECT count(*) FROM runs WHERE workflow = 'api-client' AND flag = 'on' AND passed = 0");
    EXPECT_EQ(failed[0][0], "2");
}

TEST_F(UpstreamsCommand, ABadUpstreamIsExitTwoWithItsLine) {
    write_settings(R"(
injectors: [fault_proxy]
workflows:
  - name: api-client
    upstreams:
      - {name: api, listen: 127.0.0.1, target: 127.0.0.1:8080}
    steps:
      - run: [/bin/true]
)");
    const auto result = runner({"run-scenarios", "api-client"});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_NE(result.err.find("settings.yaml:6:29: listen '127.0.0.1' of upstream 'api' of "
                              "workflow 'api-client' is not host:port"),
              std::string::npos)
        << result.err;
}

}  // namespace
