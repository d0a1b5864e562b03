// What the fault proxy does to traffic, measured by real clients against a real upstream:
// the exact seeded share of reset connections, the latency of each request, corrupted bytes
// at the set rate, and a teardown under traffic that ends everything at once.
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include <cmath>
#include <iostream>
#include <set>

#include "fault_proxy_fixture.hpp"
#include "fault_schedule.hpp"
#include "wait.hpp"

namespace sbx::injectors_test {
namespace {

// The connection numbers that were reset, out of `count` sequential one-request connections.
std::vector<std::uint64_t> reset_connections(const PreparedRun &run, std::uint64_t count) {
    std::vector<std::uint64_t> reset;
    for (std::uint64_t i = 0; i < count; ++i) {
        Client client(run.upstream());
        EXPECT_TRUE(client.connected()) << std::strerror(client.connect_errno());
        const auto outcome = client.exchange("request " + std::to_string(i) + "\n");
        if (outcome == Client::Outcome::reset) {
            reset.push_back(i);
        } else {
            EXPECT_EQ(outcome, Client::Outcome::ok) << "connection " << i;
        }
    }
    return reset;
}

// The schedule the seed gives: block by block, as the plugin draws it.
std::vector<std::uint64_t> expected_resets(std::uint64_t seed, std::uint64_t failures,
                                           std::uint64_t requests, std::uint64_t count) {
    std::vector<std::uint64_t> expected;
    for (std::uint64_t block = 0; block * requests < count; ++block) {
        for (const auto position :
             fault_proxy::reset_positions(seed, "api", failures, requests, block)) {
            if (block * requests + position < count) {
                expected.push_back(block * requests + position);
            }
        }
    }
    return expected;
}

TEST_F(FaultProxyTest, ResetsExactlyTheSeededShareOfConnections) {
    const TestUpstream upstream(TestUpstream::Mode::echo);
    auto proxy = injector({{"seed", 7}});
    const PreparedRun run(*proxy, request({{"SCENARIO_NAME", "exact-share"},
                                           {"UPSTREAM_FAILURES", "3"},
                                           {"UPSTREAM_REQUESTS", "10"}},
                                          upstream.address()));
    ASSERT_TRUE(run.response().value("active", false));
    const auto reset = reset_connections(run, 30);
    EXPECT_EQ(reset.size(), 9U) << "3 of every 10 connections, exactly";
    EXPECT_EQ(reset, expected_resets(7, 3, 10, 30));
    // The golden schedule of seed 7 (README): hung connections, added later, moved no reset.
    const std::vector<std::uint64_t> golden = {5, 6, 8, 14, 15, 17, 21, 25, 26};
    EXPECT_EQ(reset, golden);
    const PreparedRun no_timeouts(*proxy, request({{"SCENARIO_NAME", "exact-share-0"},
                                                   {"UPSTREAM_FAILURES", "3"},
                                                   {"UPSTREAM_TIMEOUTS", "0"},
                                                   {"UPSTREAM_REQUESTS", "10"}},
                                                  upstream.address()));
    EXPECT_EQ(reset_connections(no_timeouts, 30), golden) << "UPSTREAM_TIMEOUTS 0 is no timeout";
    std::cout << "[ resets    ] " << json(reset).dump() << "\n";
}

TEST_F(FaultProxyTest, SameSeedSameResetScheduleAnotherSeedAnother) {
    const TestUpstream upstream(TestUpstream::Mode::echo);
    const auto schedule = [&](std::uint64_t seed, const std::string &scenario) {
        auto proxy = injector({{"seed", seed}});
        const PreparedRun run(*proxy, request({{"SCENARIO_NAME", scenario},
                                               {"FAILURE_MODES", "flaky_upstream"},
                                               {"UPSTREAM_FAILURES", "2"},
                                               {"UPSTREAM_REQUESTS", "8"}},
                                              upstream.address()));
        return reset_connections(run, 16);
    };
    const auto first = schedule(11, "seed-a");
    const auto again = schedule(11, "seed-b");  // another preset: a schedule of its own
    const auto other = schedule(12, "seed-c");
    EXPECT_EQ(first.size(), 4U);
    EXPECT_EQ(first, again);
    EXPECT_NE(first, other);
    EXPECT_EQ(other.size(), 4U);
}

TEST_F(FaultProxyTest, TheScheduleRunsOnAcrossRunsOfAPreset) {
    // A cell's runs meet the faults together: connection numbers keep counting from one
    // run of the preset to the next, so 1 in 4 means one of the cell's 4 connections.
    const TestUpstream upstream(TestUpstream::Mode::echo);
    auto proxy = injector({{"seed", 3}});
    const json preset = {
        {"SCENARIO_NAME", "across-runs"}, {"UPSTREAM_FAILURES", "1"}, {"UPSTREAM_REQUESTS", "4"}};
    std::vector<std::uint64_t> reset;
    for (std::uint64_t run_number = 0; run_number < 4; ++run_number) {
        const PreparedRun run(*proxy, request(preset, upstream.address()));
        for (const auto i : reset_connections(run, 2)) {
            reset.push_back(2 * run_number + i);
        }
    }
    EXPECT_EQ(reset, expected_resets(3, 1, 4, 8));
    EXPECT_EQ(reset.size(), 2U);
}

TEST_F(FaultProxyTest, EachRequestIsHeldBackByTheApiLatency) {
    const TestUpstream upstream(TestUpstream::Mode::echo);
    double direct_ms = 0;
    {
        Client direct(upstream.address());
        const auto start = Clock::now();
        EXPECT_EQ(direct.exchange("ping\n"), Client::Outcome::ok);
        direct_ms = elapsed_ms(start);
    }
    auto proxy = injector();
    const PreparedRun run(*proxy, request({{"SCENARIO_NAME", "latency"}, {"API_LATENCY_MS", "100"}},
                                          upstream.address()));
    // Several requests on one connection (each after the previous answer: a new request),
    // and a fresh connection's first one.
    Client client(run.upstream());
    std::vector<double> round_trips;
    for (int i = 0; i < 4; ++i) {
        const auto start = Clock::now();
        EXPECT_EQ(client.exchange("request " + std::to_string(i) + "\n"), Client::Outcome::ok);
        round_trips.push_back(elapsed_ms(start));
    }
    Client second(run.upstream());
    const auto start = Clock::now();
    EXPECT_EQ(second.exchange("hello\n"), Client::Outcome::ok);
    round_trips.push_back(elapsed_ms(start));
    // Held back once per request: twice (per hop) would be 200 ms, per byte far more. The
    // bound leaves the machine its own speed (an emulated guest takes tens of ms directly).
    for (const double ms : round_trips) {
        EXPECT_GE(ms, 100.0);
        EXPECT_LT(ms, 200.0) << "held back once per request, not per byte or per hop";
    }
    std::cout << "[ latency   ] direct " << direct_ms << " ms; through the proxy "
              << json(round_trips).dump() << " ms\n";
}

TEST_F(FaultProxyTest, ApiLatencyModeAloneHoldsRequestsHalfASecond) {
    const TestUpstream upstream(TestUpstream::Mode::echo);
    auto proxy = injector();
    const PreparedRun run(
        *proxy, request({{"SCENARIO_NAME", "mode-latency"}, {"FAILURE_MODES", "api_latency"}},
                        upstream.address()));
    Client client(run.upstream());
    const auto start = Clock::now();
    EXPECT_EQ(client.exchange("ping\n"), Client::Outcome::ok);
    EXPECT_GE(elapsed_ms(start), 500.0);
}

// FNV-1a of each `block`-byte block of `data`, against the same of the upstream's pattern:
// the share of blocks whose checksum does not match.
double mismatched_block_share(const std::string &data, std::size_t block) {
    std::size_t mismatched = 0;
    const std::size_t blocks = data.size() / block;
    for (std::size_t b = 0; b < blocks; ++b) {
        std::uint64_t got = 0xcbf29ce484222325ULL;
        std::uint64_t want = 0xcbf29ce484222325ULL;
        for (std::size_t i = b * block; i < (b + 1) * block; ++i) {
            got = (got ^ static_cast<unsigned char>(data[i])) * 0x100000001b3ULL;
            want = (want ^ static_cast<unsigned char>(pattern_byte(i))) * 0x100000001b3ULL;
        }
        mismatched += got != want ? 1 : 0;
    }
    return static_cast<double>(mismatched) / static_cast<double>(blocks);
}

std::vector<std::size_t> altered_offsets(const std::string &data) {
    std::vector<std::size_t> offsets;
    for (std::size_t i = 0; i < data.size(); ++i) {
        if (data[i] != pattern_byte(i)) {
            offsets.push_back(i);
        }
    }
    return offsets;
}

TEST_F(FaultProxyTest, CorruptsBytesComingBackAtTheSetRate) {
    constexpr std::size_t kBytes = 1U << 20U;
    const TestUpstream upstream(TestUpstream::Mode::payload, kBytes);
    const auto receive = [&](plugins::Instance &proxy, const json &preset) {
        const PreparedRun run(proxy, request(preset, upstream.address()));
        Client client(run.upstream());
        int error = 0;
        std::string data = client.read_all(kBytes + 1, error);
        EXPECT_EQ(error, 0) << std::strerror(error);
        EXPECT_EQ(data.size(), kBytes) << "corruption alters bytes, it neither adds nor drops";
        return data;
    };
    auto proxy = injector({{"seed", 5}});
    const std::string data =
        receive(*proxy, {{"SCENARIO_NAME", "corrupt-a"}, {"CORRUPT_PAYLOAD", "1%"}});
    const auto offsets = altered_offsets(data);
    const double rate = static_cast<double>(offsets.size()) / static_cast<double>(kBytes);
    // 1 MiB at 1 %: 10486 expected, standard deviation 102; ±5 % is five of them.
    EXPECT_NEAR(rate, 0.01, 0.0005);
    // A receiver that checks 64-byte blocks finds 1 − 0.99⁶⁴ = 47.4 % of them damaged.
    const double blocks = mismatched_block_share(data, 64);
    EXPECT_NEAR(blocks, 1 - std::pow(0.99, 64), 0.03);
    std::cout << "[ corrupt   ] " << offsets.size() << " of " << kBytes << " bytes altered (rate "
              << rate << "), " << blocks << " of 64-byte blocks fail their checksum\n";

    // Same seed, another preset's first connection: the very same bytes.
    EXPECT_EQ(altered_offsets(
                  receive(*proxy, {{"SCENARIO_NAME", "corrupt-b"}, {"CORRUPT_PAYLOAD", "0.01"}})),
              offsets);
    // The flag takes the configured rate.
    auto flagged = injector({{"corrupt_rate", 0.05}});
    const auto flagged_offsets = altered_offsets(
        receive(*flagged, {{"SCENARIO_NAME", "corrupt-c"}, {"CORRUPT_PAYLOAD", "1"}}));
    EXPECT_NEAR(static_cast<double>(flagged_offsets.size()) / kBytes, 0.05, 0.0025);
    // Zero: the proxy is on the path, nothing is altered.
    EXPECT_TRUE(
        altered_offsets(receive(*proxy, {{"SCENARIO_NAME", "corrupt-d"}, {"CORRUPT_PAYLOAD", "0"}}))
            .empty());
}

TEST_F(FaultProxyTest, TeardownUnderTrafficEndsEveryConnectionAtOnce) {
    // Toxiproxy's known failure: removing a fault while data flows hangs the connections.
    // Here: one client that does not read (the proxy's buffers and the upstream's are full)
    // and one whose request is held back by a 5 s latency, when teardown comes.
    const TestUpstream upstream(TestUpstream::Mode::endless);
    auto proxy = injector();
    PreparedRun run(
        *proxy, request({{"SCENARIO_NAME", "teardown-under-traffic"}, {"API_LATENCY_MS", "5000"}},
                        upstream.address()));
    const std::string address = run.upstream();
    Client stalled(address);
    Client held(address);
    ASSERT_EQ(::send(held.fd(), "slow request\n", 13, MSG_NOSIGNAL), 13);
    // Traffic is flowing once the upstream has both connections (it sends without pause).
    ASSERT_TRUE(test::wait_until([&] { return upstream.accepted() == 2; }))
        << upstream.accepted() << " of 2 connections reached the upstream";

    const auto start = Clock::now();
    run.teardown();
    const double teardown_ms = elapsed_ms(start);
    EXPECT_LT(teardown_ms, 500.0);

    for (Client *client : {&stalled, &held}) {
        const auto reading = Clock::now();
        int error = 0;
        (void)client->read_all(SIZE_MAX, error);
        EXPECT_NE(error, EAGAIN) << "the client waited for its receive timeout: a hang";
        EXPECT_LT(elapsed_ms(reading), 1000.0);
    }
    EXPECT_TRUE(test::wait_until([&] { return upstream.ended() == 2; }))
        << upstream.ended() << " of 2: the upstream's side of each connection ended too";
    const Client late(address);
    EXPECT_FALSE(late.connected()) << "nothing listens after teardown";
    std::cout << "[ teardown  ] " << teardown_ms << " ms under traffic\n";
}

TEST_F(FaultProxyTest, TeardownEndsConnectionsEvenWhenAForkHoldsTheirDescriptors) {
    // A process forked from the host without exec (a cpu_spike burner) holds copies of the
    // proxy's sockets: closing the host's descriptors alone would then leave the listener
    // listening and the connections open. The proxy acts on the sockets themselves.
    const TestUpstream upstream(TestUpstream::Mode::echo);
    auto proxy = injector();
    PreparedRun run(*proxy,
                    request({{"SCENARIO_NAME", "fork-holds-copies"}, {"API_LATENCY_MS", "0"}},
                            upstream.address()));
    const std::string address = run.upstream();
    Client open(address);
    ASSERT_EQ(open.exchange("before\n"), Client::Outcome::ok);
    const pid_t holder = ::fork();
    if (holder == 0) {
        ::pause();  // holds every descriptor of the test process, the proxy's included
        ::_exit(0);
    }
    ASSERT_GT(holder, 0);
    run.teardown();
    const auto reading = Clock::now();
    int error = 0;
    (void)open.read_all(SIZE_MAX, error);
    EXPECT_EQ(error, ECONNRESET);
    EXPECT_LT(elapsed_ms(reading), 1000.0);
    const Client late(address);
    EXPECT_FALSE(late.connected()) << "the forked copy of the listener does not listen";
    ::kill(holder, SIGKILL);
    ::waitpid(holder, nullptr, 0);
}

TEST_F(FaultProxyTest, AFixedAddressIsFreeAgainAfterTeardownEvenWithForkedCopies) {
    // The next run of another preset binds the same fixed address: neither the finished
    // connections nor the listener may keep it, even when a fork holds their descriptors.
    const TestUpstream upstream(TestUpstream::Mode::echo);
    std::string fixed;
    {
        const TestUpstream probe(TestUpstream::Mode::echo);
        fixed = probe.address();
    }
    auto proxy = injector();
    std::vector<pid_t> holders;
    for (int round = 0; round < 3; ++round) {
        const json preset = {{"SCENARIO_NAME", "fixed-reuse-" + std::to_string(round)},
                             {"API_LATENCY_MS", "0"}};
        PreparedRun run(*proxy, request(preset, upstream.address(), fixed));
        ASSERT_EQ(run.upstream(), fixed) << "round " << round;
        auto finished = std::make_unique<Client>(fixed);  // ends normally before teardown
        ASSERT_EQ(finished->exchange("done\n"), Client::Outcome::ok);
        Client open(fixed);  // still open at teardown
        ASSERT_EQ(open.exchange("open\n"), Client::Outcome::ok);
        const pid_t holder = ::fork();  // holds both connections' and the listener's sockets
        if (holder == 0) {
            ::pause();
            ::_exit(0);
        }
        holders.push_back(holder);
        // The holder's copy would keep a plain close from ending the connection: shut it
        // down, and wait until the proxy has passed its end on to the upstream.
        const int ended = upstream.ended();
        ::shutdown(finished->fd(), SHUT_RDWR);
        finished.reset();
        EXPECT_TRUE(test::wait_until([&] { return upstream.ended() > ended; }))
            << "round " << round << ": the finished connection never ended upstream";
        run.teardown();
    }
    for (const pid_t holder : holders) {
        ::kill(holder, SIGKILL);
        ::waitpid(holder, nullptr, 0);
    }
}

TEST_F(FaultProxyTest, AnUpstreamThatIsDownResetsTheClient) {
    // A port nobody listens on: bind one and close it.
    std::string down;
    {
        const TestUpstream gone(TestUpstream::Mode::echo);
        down = gone.address();
    }
    auto proxy = injector();
    const PreparedRun run(
        *proxy, request({{"SCENARIO_NAME", "upstream-down"}, {"API_LATENCY_MS", "0"}}, down));
    Client client(run.upstream());
    ASSERT_TRUE(client.connected());
    EXPECT_EQ(client.exchange("anyone?\n"), Client::Outcome::reset);
}

TEST_F(FaultProxyTest, AnIdleProxyPassesTrafficThroughUnchanged) {
    constexpr std::size_t kBytes = 4U << 20U;
    const TestUpstream upstream(TestUpstream::Mode::payload, kBytes);
    auto proxy = injector();
    // Keys at 0 switch the proxy on without any fault: the path of the off-run.
    const PreparedRun run(*proxy, request({{"SCENARIO_NAME", "idle"},
                                           {"UPSTREAM_FAILURES", "0"},
                                           {"API_LATENCY_MS", "0"},
                                           {"CORRUPT_PAYLOAD", "0"}},
                                          upstream.address()));
    ASSERT_TRUE(run.response().value("active", false));
    Client client(run.upstream());
    int error = 0;
    const auto start = Clock::now();
    const std::string data = client.read_all(kBytes + 1, error);
    const double ms = elapsed_ms(start);
    EXPECT_EQ(data.size(), kBytes);
    EXPECT_TRUE(altered_offsets(data).empty());
    std::cout << "[ bulk      ] 4 MiB through the idle proxy in " << ms << " ms\n";
}

}  // namespace
}  // namespace sbx::injectors_test
