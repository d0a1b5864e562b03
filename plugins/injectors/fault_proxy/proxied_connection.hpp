// One connection through a fault proxy: the client's socket, the upstream's, a buffer per
// direction and the faults the schedule gave it. `advance` moves its bytes as far as they
// can go without waiting; `wanted_events` says what the poll loop should wait for. Every
// socket is non-blocking: nothing here ever waits for a peer.
#pragma once

#include <sbx/unique_fd.hpp>

#include <poll.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "fault_schedule.hpp"
#include "proxy_counters.hpp"
#include "send_shaper.hpp"

namespace sbx::fault_proxy {

using Clock = std::chrono::steady_clock;

// Bytes buffered per direction of a connection: a slow reader holds back its writer
// (the proxy stops reading) instead of growing the buffer.
constexpr std::size_t kBufferBytes = std::size_t{64} * 1024;

// One direction of a connection: bytes read from one side, not yet written to the other.
struct Pipe {
    explicit Pipe(SendShaper send_shaper) : shaper(send_shaper) {}

    std::vector<char> data;
    std::size_t sent = 0;
    bool eof = false;   // the source has finished (FIN)
    bool shut = false;  // the FIN has been passed on
    SendShaper shaper;  // when the pending bytes may go out, and how many at once

    [[nodiscard]] std::size_t pending() const { return data.size() - sent; }
    [[nodiscard]] bool wants_input() const { return !eof && pending() < kBufferBytes; }
};

// How a connection's bytes are shaped, the same for every connection of one proxy.
struct ConnectionShape {
    std::chrono::milliseconds latency{0};  // per request burst, client -> upstream
    double bytes_per_second = 0;           // each direction; 0: unlimited
    std::size_t slice_bytes = 0;           // upstream -> client; 0: whole
    std::chrono::milliseconds slice_delay{0};
    double corrupt_rate = 0;  // per byte, upstream -> client
};

// What poll reported for (or should wait for on) the two sockets of a connection.
struct SocketEvents {
    short client = 0;
    short upstream = 0;
};

struct ProxiedConnection {
    // `corrupt_seed`: this connection's own stream of byte corruption.
    ProxiedConnection(std::uint64_t number, const ConnectionShape &shape,
                      std::uint64_t corrupt_seed);

    std::uint64_t index;
    bool doomed = false;  // reset by the schedule, at its first request
    // Hung by the schedule: never connected to the upstream; the client's bytes are read
    // and dropped, nothing goes back, until teardown resets it.
    bool hung = false;
    UniqueFd client;
    UniqueFd upstream;
    bool connecting = true;
    Pipe up;    // client -> upstream
    Pipe down;  // upstream -> client
    // The next byte from the client starts a request (the first byte of a connection, or
    // the first after upstream bytes reached the client): it is held back by the latency.
    bool next_is_request = true;
    Clock::time_point release_at{};
    ByteCorrupter corrupter;
    bool done = false;

    // Resets both sockets (the peers see a reset) and marks the connection done.
    void abort();
    // Does every read, write and state change `events` allow at `now`.
    void advance(SocketEvents events, Clock::time_point now, std::chrono::milliseconds latency,
                 ProxyCounters &counters);
    // What to wait for at `now`; `wake_at` is lowered to when held-back bytes may go out
    // (those wait for the timer, not for POLLOUT: a writable socket would wake at once).
    [[nodiscard]] SocketEvents wanted_events(Clock::time_point now,
                                             Clock::time_point &wake_at) const;

  private:
    void advance_hung(short client_events);
    bool finish_connect(short upstream_events);
    bool read_client(Clock::time_point now, std::chrono::milliseconds latency);
    bool read_upstream(ProxyCounters &counters);
    bool write_upstream(Clock::time_point now, ProxyCounters &counters);
    bool write_client(Clock::time_point now, ProxyCounters &counters);
    void pass_on_fins();
};

}  // namespace sbx::fault_proxy
