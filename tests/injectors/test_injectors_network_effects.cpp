// What the network injector must observably do inside the sandbox (docs/semantics.md, failure
// modes): latency, jitter, loss, duplication, bandwidth, partition, uplink, and a
// reproducible schedule for a seed. Measured by a probe run through the real executor.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <iostream>
#include <set>
#include <thread>

#include "machine.hpp"
#include "network_fixture.hpp"

namespace sbx::injectors_test {
namespace {

std::string mechanism_here(const json &network) {
    return network.value("impairment", "?") +
           (network.contains("netem") ? " (netem probe: " + network["netem"].dump() + ")" : "");
}

TEST_F(NetworkTest, LatencyRaisesTheRoundTripAndTeardownRestoresIt) {
    const std::vector<std::string> argv{probe(), "rtt", "6"};
    const double baseline_ms = run_plain(argv).value("median_ms", -1.0);
    ASSERT_GE(baseline_ms, 0);
    std::string netns;
    {
        auto network = injector({{"keep_namespaces", 0}});
        PreparedRun run(*network, request({{"NETWORK_LATENCY_MS", "100"}}, argv));
        // A user's namespace has no name to look for (network_user tests follow its life).
        if (run.network().value("kind", "") == "named") {
            netns = run.network().value("namespace", "");
            EXPECT_TRUE(namespace_exists(netns));
        }
        const std::string mechanism = run.network().value("impairment", "");
        EXPECT_TRUE(mechanism == "netem" || mechanism == "nfqueue") << run.network().dump();
        if (test::kernel_offers_netem()) {
            EXPECT_EQ(mechanism, "netem") << "the kernel has sch_netem: " << run.network().dump();
        }
        std::cout << "[ mechanism ] " << mechanism_here(run.network()) << "\n";
        const json measured = run_probe(run.spec());
        std::cout << "[ measured  ] baseline " << baseline_ms
                  << " ms, with 100 ms: " << measured.dump() << "\n";
        EXPECT_EQ(measured.value("lost", -1), 0);
        // >= 75 % of the set latency on top of the baseline.
        EXPECT_GE(measured.value("median_ms", 0.0), baseline_ms + 75.0) << measured.dump();
        EXPECT_LE(measured.value("median_ms", 1e9), baseline_ms + 150.0) << measured.dump();
    }
    EXPECT_TRUE(netns.empty() || !namespace_exists(netns))
        << "keep_namespaces 0: gone with the run's teardown";
    const json after = run_plain(argv);
    EXPECT_LT(after.value("median_ms", 1e9), baseline_ms + 10.0)
        << "back to the baseline after teardown: " << after.dump();
}

TEST_F(NetworkTest, JitterSpreadsTheRoundTripAroundTheLatency) {
    auto network = injector();
    PreparedRun run(*network, request({{"NETWORK_LATENCY_MS", "60"}, {"NETWORK_JITTER_MS", "30"}},
                                      {probe(), "rtt", "12"}));
    const json measured = run_probe(run.spec());
    std::cout << "[ measured  ] 60 ± 30 ms: " << measured.dump() << "\n";
    const auto rtts = measured.at("rtt_ms").get<std::vector<double>>();
    ASSERT_EQ(rtts.size(), 12U);
    const auto [low, high] = std::minmax_element(rtts.begin(), rtts.end());
    EXPECT_GE(*low, 30.0 - 2);    // 60 - 30, minus timer slack
    EXPECT_LE(*high, 90.0 + 60);  // 60 + 30, plus room for a loaded machine
    EXPECT_GT(*high - *low, 10.0) << "jitter must vary the round trip";
}

TEST_F(NetworkTest, LossIsTheSetFractionOfPackets) {
    auto network = injector();
    PreparedRun run(*network, request({{"PACKET_LOSS", "30%"}}, {probe(), "loss", "300", "300"}));
    const json measured = run_probe(run.spec());
    const double loss = 1.0 - measured.value("unique", 0) / 300.0;
    std::cout << "[ measured  ] loss set 0.30, measured " << loss << " over 300 packets\n";
    EXPECT_NEAR(loss, 0.30, 0.10);
    EXPECT_EQ(measured.value("received", 0), measured.value("unique", -1)) << "no duplicates";
}

TEST_F(NetworkTest, DuplicationSendsTheSetFractionTwice) {
    auto network = injector();
    PreparedRun run(*network,
                    request({{"PACKET_DUPLICATION", "0.2"}}, {probe(), "loss", "300", "300"}));
    const json measured = run_probe(run.spec());
    const double duplicated = (measured.value("received", 0) - 300) / 300.0;
    std::cout << "[ measured  ] duplication set 0.20, measured " << duplicated
              << " over 300 packets\n";
    EXPECT_EQ(measured.value("unique", 0), 300) << "nothing lost";
    EXPECT_NEAR(duplicated, 0.20, 0.10);
}

TEST_F(NetworkTest, TheSameSeedGivesTheSameDropSchedule) {
    // Distinct scenario names: distinct presets, so three namespaces, each from the start.
    const auto arrivals = [&](std::uint64_t seed, const char *name) {
        auto network = injector({{"seed", seed}, {"impairment", "nfqueue"}});
        PreparedRun run(*network, request({{"PACKET_LOSS", "0.5"}, {"SCENARIO_NAME", name}},
                                          {probe(), "loss", "100", "300"}));
        return run_probe(run.spec()).value("arrived", json::array());
    };
    const json first = arrivals(7, "seed-a");
    const json again = arrivals(7, "seed-b");
    const json other = arrivals(8, "seed-c");
    EXPECT_EQ(first, again);
    EXPECT_NE(first, other);
    EXPECT_NEAR(static_cast<double>(first.size()) / 100.0, 0.5, 0.15);
}

TEST_F(NetworkTest, BandwidthIsCappedAtTheLimit) {
    auto network = injector();
    PreparedRun run(*network, request({{"BANDWIDTH_LIMIT", "16mbps"}},
                                      {probe(), "bandwidth", std::to_string(2'000'000)}));
    EXPECT_EQ(run.network().value("bandwidth", ""), "tbf");
    const json measured = run_probe(run.spec());
    const double mbps = measured.value("bits_per_s", 0.0) / 1e6;
    std::cout << "[ measured  ] limit 16 mbps, bulk transfer of 2 MB: " << mbps << " mbps\n";
    EXPECT_EQ(measured.value("bytes", 0), 2'000'000);
    EXPECT_LE(mbps, 16 * 1.2);
    EXPECT_GE(mbps, 16 * 0.5) << "throttled, not stalled";
}

TEST_F(NetworkTest, MaxBandwidthCapsWhenNoLimitIsGiven) {
    auto network = injector();
    PreparedRun run(*network, request({{"MIN_BANDWIDTH", "5mbps"}, {"MAX_BANDWIDTH", "10mbps"}},
                                      {probe(), "rtt", "1"}));
    EXPECT_EQ(run.network().value("rate_bits_per_s", 0.0), 10e6);
}

TEST_F(NetworkTest, PartitionLeavesOnlyLoopback) {
    auto network = injector();
    PreparedRun run(*network, request({{"FAILURE_MODES", "network_partition"}},
                                      {probe(), "connect", "192.0.2.1:80", "192.0.2.254:443"}));
    EXPECT_TRUE(run.network().at("uplink").is_null());
    const json measured = run_probe(run.spec());
    std::cout << "[ measured  ] partition: " << measured.dump() << "\n";
    EXPECT_TRUE(measured.value("loopback_echo", false)) << "loopback inside must still work";
    for (const char *target : {"192.0.2.1:80", "192.0.2.254:443"}) {
        EXPECT_NE(measured["targets"].value(target, ""), "") << target << " must be unreachable";
    }
}

// A TCP echo server on every address of the host, for the uplink test.
class HostEcho {
  public:
    HostEcho() {
        listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_ANY);
        socklen_t length = sizeof address;
        EXPECT_EQ(::bind(listener_, reinterpret_cast<sockaddr *>(&address), sizeof address), 0);
        EXPECT_EQ(::getsockname(listener_, reinterpret_cast<sockaddr *>(&address), &length), 0);
        EXPECT_EQ(::listen(listener_, 4), 0);
        port_ = ntohs(address.sin_port);
        thread_ = std::thread([this] {
            const int connection = ::accept(listener_, nullptr, nullptr);
            char buffer[4];
            if (connection >= 0 && ::read(connection, buffer, 4) == 4) {
                (void)::write(connection, buffer, 4);
            }
            if (connection >= 0) {
                ::close(connection);
            }
        });
    }
    ~HostEcho() {
        ::shutdown(listener_, SHUT_RDWR);  // wakes accept() if nobody came
        thread_.join();
        ::close(listener_);
    }
    HostEcho(const HostEcho &) = delete;
    HostEcho &operator=(const HostEcho &) = delete;
    [[nodiscard]] int port() const { return port_; }

  private:
    int listener_ = -1;
    int port_ = 0;
    std::thread thread_;
};

TEST_F(NamedNetworkTest, NetworkModeReachesTheHostThroughItsUplink) {
    const HostEcho echo;
    auto network = injector();
    // The probe's argv needs the uplink's address, known once prepared: prepare once to
    // learn it, then run a spec with the real argv in the same (shared) namespace.
    const json preset = {{"FAILURE_MODES", "network"}, {"NETWORK_LATENCY_MS", "40"}};
    PreparedRun first(*network, request(preset, {probe()}));
    const json uplink = first.network().at("uplink");
    ASSERT_TRUE(uplink.is_object()) << first.network().dump();
    EXPECT_TRUE(link_exists(uplink.value("link", "")));
    const std::string target = uplink.value("host", "") + ":" + std::to_string(echo.port());
    PreparedRun run(*network, request(preset, {probe(), "connect", target}));
    EXPECT_EQ(run.network().value("namespace", ""), first.network().value("namespace", "?"));
    EXPECT_EQ(run.spec()["env"].value("SANDBOX_NETWORK_HOST", ""), uplink.value("host", "?"));
    const json measured = run_probe(run.spec());
    std::cout << "[ measured  ] uplink: " << measured.dump() << "\n";
    EXPECT_TRUE(measured.value("loopback_echo", false));
    EXPECT_EQ(measured["targets"].value(target, "?"), "") << "the host must be reachable";
}

}  // namespace
}  // namespace sbx::injectors_test
