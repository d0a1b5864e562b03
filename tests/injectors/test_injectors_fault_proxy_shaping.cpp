// Shaping by the fault proxy, measured by real clients: each direction paced to
// UPSTREAM_BANDWIDTH, and replies cut into UPSTREAM_SLICE_BYTES sends with a pause between
// them. Bounds are physical: the proxy never sends ahead of its pace or its pauses, so a
// rate can only come out lower than the limit (≤ 1.2 × it) and a sliced reply
// can only take longer; lower bounds on speed are left very loose.
#include <sys/socket.h>

#include <iostream>

#include "fault_proxy_fixture.hpp"
#include "wait.hpp"

namespace sbx::injectors_test {
namespace {

constexpr double kLimitBitsPerSecond = 8e6;  // UPSTREAM_BANDWIDTH: 8mbps, 1 MB/s
constexpr double kLimitBytesPerSecond = kLimitBitsPerSecond / 8;

// Downloads `bytes` from a payload upstream through a proxy prepared with `request_json`;
// the rate in bytes per second from before connect to the end of the stream.
double download_rate(plugins::Instance &proxy, const json &request_json, std::size_t bytes) {
    const PreparedRun run(proxy, request_json);
    const auto start = Clock::now();
    Client client(run.upstream());
    int error = 0;
    const std::string data = client.read_all(bytes + 1, error);
    const double seconds = elapsed_ms(start) / 1000.0;
    EXPECT_EQ(error, 0) << std::strerror(error);
    EXPECT_EQ(data.size(), bytes);
    for (std::size_t i = 0; i < data.size(); ++i) {
        if (data[i] != pattern_byte(i)) {
            ADD_FAILURE() << "byte " << i << " changed on the way";
            break;
        }
    }
    return static_cast<double>(data.size()) / seconds;
}

TEST_F(FaultProxyTest, ADownloadIsPacedToTheUpstreamBandwidth) {
    constexpr std::size_t kBytes = 1U << 20U;  // about a second at 1 MB/s
    const TestUpstream upstream(TestUpstream::Mode::payload, kBytes);
    auto proxy = injector();
    const json limited = {{"SCENARIO_NAME", "bandwidth-down"}, {"UPSTREAM_BANDWIDTH", "8mbps"}};
    const json idle = {{"SCENARIO_NAME", "bandwidth-idle"}, {"API_LATENCY_MS", "0"}};
    const double paced = download_rate(*proxy, request(limited, upstream.address()), kBytes);
    const double free = download_rate(*proxy, request(idle, upstream.address()), kBytes);
    EXPECT_LE(paced, 1.2 * kLimitBytesPerSecond);
    EXPECT_GE(paced, 0.2 * kLimitBytesPerSecond) << "paced, not stalled";
    EXPECT_LT(paced, free) << "the limit is what slows it";
    std::cout << "[ bandwidth ] 1 MiB down at " << paced * 8 / 1e6 << " Mbit/s through 8mbps ("
              << paced / kLimitBytesPerSecond << " of the limit); unthrottled " << free * 8 / 1e6
              << " Mbit/s\n";
}

TEST_F(FaultProxyTest, AnUploadIsPacedToTheUpstreamBandwidthToo) {
    // Timed where the bytes land (the upstream), since the client's send returns as soon as
    // socket buffers take the bytes.
    constexpr std::size_t kBytes = 512U << 10U;
    const TestUpstream upstream(TestUpstream::Mode::sink);
    auto proxy = injector();
    PreparedRun run(*proxy,
                    request({{"SCENARIO_NAME", "bandwidth-up"}, {"UPSTREAM_BANDWIDTH", "8mbps"}},
                            upstream.address()));
    Client client(run.upstream());
    std::string data(kBytes, 'u');
    std::size_t sent = 0;
    const auto sending = std::chrono::steady_clock::now();
    while (sent < data.size()) {
        const ssize_t put =
            ::send(client.fd(), data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
        ASSERT_GT(put, 0) << std::strerror(errno);
        sent += static_cast<std::size_t>(put);
    }
    ::shutdown(client.fd(), SHUT_WR);
    ASSERT_TRUE(test::wait_until([&] { return upstream.sunk() >= kBytes; }))
        << upstream.sunk() << " of " << kBytes << " bytes reached the upstream";
    ASSERT_EQ(upstream.sunk(), kBytes);
    // The first chunk goes at once; the rest is paced. Timed from the first send to the
    // last byte landing, not from the sink's first read: a sink thread scheduled late on
    // a busy machine would shorten the span and make the pacing look too fast.
    const double rate = static_cast<double>(kBytes) /
                        std::chrono::duration<double>(upstream.last_byte() - sending).count();
    EXPECT_LE(rate, 1.2 * kLimitBytesPerSecond);
    EXPECT_GE(rate, 0.2 * kLimitBytesPerSecond);
    std::cout << "[ bandwidth ] 512 KiB up at " << rate * 8 / 1e6 << " Mbit/s through 8mbps\n";
}

TEST_F(FaultProxyTest, RepliesComeInSlicesWithAPauseBetween) {
    constexpr std::size_t kSlice = 7;
    constexpr std::size_t kSlices = 30;
    constexpr std::size_t kBytes = kSlice * kSlices - 3;  // the last slice is short
    const TestUpstream upstream(TestUpstream::Mode::payload, kBytes);
    auto proxy = injector();
    const PreparedRun run(*proxy, request({{"SCENARIO_NAME", "slices"},
                                           {"UPSTREAM_SLICE_BYTES", "7"},
                                           {"UPSTREAM_SLICE_DELAY_MS", "10"}},
                                          upstream.address()));
    const auto start = Clock::now();
    Client client(run.upstream());
    std::string data;
    std::vector<std::size_t> reads;
    char buffer[4096];
    for (ssize_t got = 0; (got = ::recv(client.fd(), buffer, sizeof buffer, 0)) > 0;) {
        data.append(buffer, static_cast<std::size_t>(got));
        reads.push_back(static_cast<std::size_t>(got));
    }
    const double ms = elapsed_ms(start);
    ASSERT_EQ(data.size(), kBytes) << "sliced, not cut short";
    for (std::size_t i = 0; i < data.size(); ++i) {
        ASSERT_EQ(data[i], pattern_byte(i)) << "byte " << i;
    }
    // Each slice is one send: a read can only end where a slice ends. A reader late by more
    // than the pause finds two slices waiting (so their count is a loose bound), but never
    // a slice split or a longer one.
    std::size_t offset = 0;
    std::size_t small = 0;
    for (const std::size_t size : reads) {
        offset += size;
        EXPECT_TRUE(offset % kSlice == 0 || offset == kBytes) << "a read ended mid-slice";
        small += size <= kSlice ? 1 : 0;
    }
    EXPECT_GE(small, kSlices / 2) << "most reads see one slice of at most 7 bytes";
    EXPECT_GE(ms, 10.0 * (kSlices - 1)) << "29 pauses of 10 ms between 30 slices";
    std::cout << "[ slices    ] " << kBytes << " bytes in " << reads.size() << " reads (" << small
              << " of at most 7 bytes, largest " << *std::max_element(reads.begin(), reads.end())
              << ") in " << ms << " ms\n";
}

}  // namespace
}  // namespace sbx::injectors_test
