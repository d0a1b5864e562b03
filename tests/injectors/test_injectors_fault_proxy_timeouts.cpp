// Hung connections (UPSTREAM_TIMEOUTS, upstream_timeout): the exact seeded share, disjoint
// from the resets and the same for the same seed, and a teardown that ends them at once.
// Timing never decides a verdict here beyond physics: a connection counts as hung when it
// has neither answered nor been reset after two seconds on loopback, a thousand times the
// usual round trip.
#include <poll.h>
#include <sys/socket.h>

#include <future>
#include <iostream>

#include "fault_proxy_fixture.hpp"
#include "fault_schedule.hpp"

namespace sbx::injectors_test {
namespace {

constexpr auto kPatience = std::chrono::seconds(2);

struct Fates {
    std::vector<std::uint64_t> answered;
    std::vector<std::uint64_t> reset;
    std::vector<std::uint64_t> hung;
    std::vector<std::uint64_t> other;  // closed, garbled: never expected
};

// What a connection that became readable (or ended) met: reads the rest of the reply.
enum class Outcome { answered, reset, other };
Outcome settle(Client &client, const std::string &request) {
    std::string reply;
    char buffer[256];
    while (reply.size() < request.size()) {
        const ssize_t got = ::recv(client.fd(), buffer, sizeof buffer, 0);
        if (got <= 0) {
            return got < 0 && errno == ECONNRESET ? Outcome::reset : Outcome::other;
        }
        reply.append(buffer, static_cast<std::size_t>(got));
    }
    return reply == request ? Outcome::answered : Outcome::other;
}

// Opens `count` connections through the proxy one after another (each connect completes
// before the next starts, so the proxy numbers them in this order), sends a request on
// each, then waits for them all together. Those with nothing after kPatience are then read
// once more with a short receive timeout: hung means that read timed out (EAGAIN), not a
// reset and not an end of stream.
Fates fates_of(const std::string &address, std::uint64_t count) {
    std::vector<std::unique_ptr<Client>> clients;
    std::vector<std::string> requests;
    for (std::uint64_t i = 0; i < count; ++i) {
        clients.push_back(std::make_unique<Client>(address));
        EXPECT_TRUE(clients.back()->connected()) << std::strerror(clients.back()->connect_errno());
        requests.push_back("request " + std::to_string(i) + "\n");
        (void)::send(clients.back()->fd(), requests.back().data(), requests.back().size(),
                     MSG_NOSIGNAL);
    }
    Fates fates;
    std::vector<bool> settled(count, false);
    const auto deadline = Clock::now() + kPatience;
    for (auto now = Clock::now(); now < deadline; now = Clock::now()) {
        std::vector<pollfd> polled;
        std::vector<std::uint64_t> which;
        for (std::uint64_t i = 0; i < count; ++i) {
            if (!settled[i]) {
                polled.push_back({clients[i]->fd(), POLLIN, 0});
                which.push_back(i);
            }
        }
        const auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now);
        if (polled.empty() ||
            ::poll(polled.data(), polled.size(), static_cast<int>(wait.count()) + 1) <= 0) {
            break;
        }
        for (std::size_t k = 0; k < polled.size(); ++k) {
            if (polled[k].revents == 0) {
                continue;
            }
            const std::uint64_t i = which[k];
            settled[i] = true;
            const Outcome outcome = settle(*clients[i], requests[i]);
            (outcome == Outcome::answered ? fates.answered
             : outcome == Outcome::reset  ? fates.reset
                                          : fates.other)
                .push_back(i);
        }
    }
    for (std::uint64_t i = 0; i < count; ++i) {
        if (settled[i]) {
            continue;
        }
        const timeval short_wait{0, 100000};
        ::setsockopt(clients[i]->fd(), SOL_SOCKET, SO_RCVTIMEO, &short_wait, sizeof short_wait);
        char byte = 0;
        const ssize_t got = ::recv(clients[i]->fd(), &byte, 1, 0);
        (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) ? fates.hung : fates.other)
            .push_back(i);
    }
    for (auto *list : {&fates.answered, &fates.reset, &fates.hung}) {
        std::sort(list->begin(), list->end());
    }
    return fates;
}

// The schedule the seed gives, block by block, as the plugin draws it.
fault_proxy::BlockFates expected_fates(std::uint64_t seed, std::uint64_t failures,
                                       std::uint64_t timeouts, std::uint64_t requests,
                                       std::uint64_t count) {
    fault_proxy::BlockFates all;
    for (std::uint64_t block = 0; block * requests < count; ++block) {
        const auto fates =
            fault_proxy::block_fates(seed, "api", failures, timeouts, requests, block);
        for (const auto position : fates.resets) {
            all.resets.insert(block * requests + position);
        }
        for (const auto position : fates.timeouts) {
            all.timeouts.insert(block * requests + position);
        }
    }
    return all;
}

std::vector<std::uint64_t> as_list(const std::set<std::uint64_t> &positions) {
    return {positions.begin(), positions.end()};
}

TEST_F(FaultProxyTest, HangsExactlyTheSeededShareApartFromTheResets) {
    const TestUpstream upstream(TestUpstream::Mode::echo);
    const auto observe = [&](const std::string &scenario) {
        auto proxy = injector({{"seed", 9}});  // one per thread, as each worker has its own
        const PreparedRun run(*proxy, request({{"SCENARIO_NAME", scenario},
                                               {"UPSTREAM_FAILURES", "1"},
                                               {"UPSTREAM_TIMEOUTS", "2"},
                                               {"UPSTREAM_REQUESTS", "10"}},
                                              upstream.address()));
        EXPECT_TRUE(run.response().value("active", false));
        return fates_of(run.upstream(), 30);
    };
    // Two presets of the same seed (a schedule each), observed at the same time.
    auto again = std::async(std::launch::async, [&] { return observe("hang-b"); });
    const Fates first = observe("hang-a");
    const Fates second = again.get();

    EXPECT_EQ(first.hung.size(), 6U) << "2 of every 10 connections hang, exactly";
    EXPECT_EQ(first.reset.size(), 3U) << "1 of every 10 is reset, exactly";
    EXPECT_EQ(first.answered.size(), 21U);
    EXPECT_TRUE(first.other.empty()) << json(first.other).dump();
    const auto expected = expected_fates(9, 1, 2, 10, 30);
    EXPECT_EQ(first.hung, as_list(expected.timeouts));
    EXPECT_EQ(first.reset, as_list(expected.resets));
    std::vector<std::uint64_t> both;
    std::set_intersection(first.hung.begin(), first.hung.end(), first.reset.begin(),
                          first.reset.end(), std::back_inserter(both));
    EXPECT_TRUE(both.empty()) << "a connection either hangs or is reset";
    EXPECT_EQ(second.hung, first.hung) << "the same seed hangs the same connections";
    EXPECT_EQ(second.reset, first.reset);
    std::cout << "[ hung      ] " << json(first.hung).dump() << " reset "
              << json(first.reset).dump() << "\n";
}

TEST_F(FaultProxyTest, HungConnectionsNeverReachTheUpstreamAndTeardownEndsThem) {
    const TestUpstream upstream(TestUpstream::Mode::echo);
    auto proxy = injector();
    PreparedRun run(*proxy, request({{"SCENARIO_NAME", "all-hang"},
                                     {"UPSTREAM_TIMEOUTS", "2"},
                                     {"UPSTREAM_REQUESTS", "2"}},
                                    upstream.address()));
    const std::string address = run.upstream();
    Client waiting(address);
    Client half_closed(address);  // has said all it will: still no answer, not even an end
    ASSERT_EQ(::send(waiting.fd(), "hello?\n", 7, MSG_NOSIGNAL), 7);
    ASSERT_EQ(::send(half_closed.fd(), "bye\n", 4, MSG_NOSIGNAL), 4);
    ASSERT_EQ(::shutdown(half_closed.fd(), SHUT_WR), 0);
    // An absence can only be watched for: 300 ms in which neither client may become
    // readable (a byte, an end or a reset would; poll returns as soon as one does).
    pollfd watched[] = {{waiting.fd(), POLLIN, 0}, {half_closed.fd(), POLLIN, 0}};
    EXPECT_EQ(::poll(watched, 2, 300), 0) << "a hung connection was answered or ended";
    for (Client *client : {&waiting, &half_closed}) {
        char byte = 0;
        EXPECT_EQ(::recv(client->fd(), &byte, 1, MSG_DONTWAIT), -1);
        EXPECT_EQ(errno, EAGAIN) << "nothing came back: no byte, no end, no reset";
    }
    EXPECT_EQ(upstream.accepted(), 0) << "a hung connection never reaches the upstream";

    const auto start = Clock::now();
    run.teardown();
    const double teardown_ms = elapsed_ms(start);
    EXPECT_LT(teardown_ms, 500.0);
    for (Client *client : {&waiting, &half_closed}) {
        const auto reading = Clock::now();
        int error = 0;
        (void)client->read_all(SIZE_MAX, error);
        EXPECT_EQ(error, ECONNRESET) << "teardown resets a hung connection";
        EXPECT_LT(elapsed_ms(reading), 1000.0);
    }
    std::cout << "[ teardown  ] " << teardown_ms << " ms with 2 hung connections\n";
}

}  // namespace
}  // namespace sbx::injectors_test
