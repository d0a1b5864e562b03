// The proxy's poll loop. Every socket is non-blocking; the loop never waits for a peer, only
// in ppoll, which the stop eventfd, the sockets and the next timer wake (a held-back
// request, a paced send, the next slice).
#include "proxy_server.hpp"

#include <sbx/plugin.hpp>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <vector>

#include "send_shaper.hpp"

namespace sbx::fault_proxy {
namespace {

using Clock = std::chrono::steady_clock;

// Bytes buffered per direction of a connection: a slow reader holds back its writer
// (the proxy stops reading) instead of growing the buffer.
constexpr std::size_t kBufferBytes = std::size_t{64} * 1024;
// Connections accepted per wake-up, so a flood of them cannot starve the others.
constexpr int kAcceptsPerWake = 64;

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

struct Connection {
    Connection(std::uint64_t number, const ProxySettings &settings)
        : index(number),
          up(SendShaper(settings.bandwidth_bits_per_s / 8, 0, {})),
          down(SendShaper(settings.bandwidth_bits_per_s / 8, settings.slice_bytes,
                          std::chrono::milliseconds(settings.slice_delay_ms))),
          corrupter(settings.corrupt_rate,
                    derive_seed(settings.seed, settings.name, 2 * number + 1)) {}

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
};

// Reads what fits into `pipe`. >0 bytes read, 0 end of stream, -1 error (errno; EAGAIN
// means nothing to read now).
ssize_t fill(int fd, Pipe &pipe) {
    if (pipe.sent == pipe.data.size()) {
        pipe.data.clear();
        pipe.sent = 0;
    }
    const std::size_t room = kBufferBytes - pipe.pending();
    const std::size_t old_size = pipe.data.size();
    pipe.data.resize(old_size + room);
    const ssize_t got = ::recv(fd, pipe.data.data() + old_size, room, 0);
    pipe.data.resize(old_size + static_cast<std::size_t>(std::max<ssize_t>(got, 0)));
    return got;
}

// Writes what it can of `pipe`, as far as its shaper lets it at `now`. false on an error
// other than EAGAIN.
bool drain(int fd, Pipe &pipe, Clock::time_point now, std::atomic<std::uint64_t> &counter) {
    while (pipe.pending() > 0 && pipe.shaper.ready_at() <= now) {
        const std::size_t size = std::min(pipe.pending(), pipe.shaper.allowance());
        const ssize_t put = ::send(fd, pipe.data.data() + pipe.sent, size, MSG_NOSIGNAL);
        if (put < 0) {
            return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;
        }
        pipe.sent += static_cast<std::size_t>(put);
        counter += static_cast<std::uint64_t>(put);
        pipe.shaper.sent(static_cast<std::size_t>(put), now);
    }
    return true;
}

// Reads and drops what a hung connection's client sends. false when the client reset.
bool swallow(Connection &c) {
    char sink[16384];
    for (;;) {
        const ssize_t got = ::recv(c.client.get(), sink, sizeof sink, 0);
        if (got == 0) {
            c.up.eof = true;  // a half-close: still nothing comes back, not even a FIN
            return true;
        }
        if (got < 0) {
            return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;
        }
    }
}

void no_delay(int fd) {
    // A proxy passes timing through: Nagle plus delayed ACKs would add up to 40 ms.
    const int on = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
}

bool is_error(ssize_t result) {
    return result < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR;
}

}  // namespace

ProxyServer::ProxyServer(ProxySettings settings)
    : settings_(std::move(settings)),
      listener_(listen_on(settings_.listen, settings_.netns,
                          "the fault proxy of upstream '" + settings_.name + "'")),
      wake_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)),
      address_(to_text(local_address(listener_.get()))),
      record_(settings_.record_folder, settings_.name, address_, to_text(settings_.target)) {
    if (!wake_) {
        throw Error(SBX_ERROR,
                    std::string("cannot make the fault proxy's eventfd: ") + std::strerror(errno));
    }
    thread_ = std::thread([this] { loop(); });
}

ProxyServer::~ProxyServer() {
    const std::uint64_t one = 1;
    if (::write(wake_.get(), &one, sizeof one) < 0) {
        // An eventfd write only fails when the counter would overflow: it is awake anyway.
    }
    if (thread_.joinable()) {
        thread_.join();
    }
    // Stop listening even if a fork of the host holds a copy of the descriptor: shutdown
    // acts on the socket, a close only on this descriptor. Connections still in the
    // accept queue are reset by the kernel.
    ::shutdown(listener_.get(), SHUT_RDWR);
    listener_.reset();
}

nlohmann::json ProxyServer::counters() const {
    return {{"connections", counters_.connections.load()},
            {"resets", counters_.resets.load()},
            {"timeouts", counters_.timeouts.load()},
            {"corrupted_bytes", counters_.corrupted_bytes.load()},
            {"bytes_to_upstream", counters_.bytes_to_upstream.load()},
            {"bytes_to_client", counters_.bytes_to_client.load()}};
}

void ProxyServer::loop() noexcept {
    std::vector<std::unique_ptr<Connection>> connections;
    std::vector<pollfd> polled;
    const auto latency = std::chrono::milliseconds(settings_.latency_ms);

    const auto abort = [&](Connection &c) {
        reset_connection(c.client);
        reset_connection(c.upstream);
        c.done = true;
    };

    const auto accept_new = [&] {
        for (int i = 0; i < kAcceptsPerWake; ++i) {
            UniqueFd client(
                ::accept4(listener_.get(), nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC));
            if (!client) {
                if (errno == ECONNABORTED || errno == EINTR) {
                    continue;
                }
                return;  // EAGAIN, or out of descriptors: try again on the next wake-up
            }
            const auto ticket = settings_.schedule->next();
            ++counters_.connections;
            auto c = std::make_unique<Connection>(ticket.index, settings_);
            c->doomed = ticket.reset;
            c->client = std::move(client);
            no_delay(c->client.get());
            if (ticket.hang) {
                ++counters_.timeouts;
                c->hung = true;
                c->connecting = false;
                connections.push_back(std::move(c));
                continue;
            }
            c->upstream = UniqueFd(::socket(settings_.target.storage.ss_family,
                                            SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
            if (!c->upstream) {
                abort(*c);
                continue;
            }
            no_delay(c->upstream.get());
            if (::connect(c->upstream.get(), settings_.target.get(), settings_.target.size) == 0) {
                c->connecting = false;
            } else if (errno != EINPROGRESS) {
                abort(*c);  // the upstream is down: the client sees a reset
                continue;
            }
            connections.push_back(std::move(c));
        }
    };

    // Moves bytes as far as they can go without waiting. Each read, write and state change
    // of one connection happens here, whatever woke the loop.
    const auto step = [&](Connection &c, short client_events, short upstream_events,
                          Clock::time_point now) {
        if (c.hung) {
            if ((client_events & (POLLIN | POLLHUP | POLLERR)) != 0 && !swallow(c)) {
                abort(c);
            }
            return;
        }
        if (c.connecting && (upstream_events & (POLLOUT | POLLERR | POLLHUP)) != 0) {
            int error = 0;
            socklen_t size = sizeof error;
            ::getsockopt(c.upstream.get(), SOL_SOCKET, SO_ERROR, &error, &size);
            if (error != 0) {
                abort(c);
                return;
            }
            c.connecting = false;
        }
        if ((client_events & (POLLIN | POLLHUP | POLLERR)) != 0 && c.up.wants_input()) {
            const bool was_empty = c.up.pending() == 0;
            const ssize_t got = fill(c.client.get(), c.up);
            if (got > 0 && was_empty && c.next_is_request) {
                c.release_at = now + latency;
                c.next_is_request = false;
            } else if (got == 0) {
                c.up.eof = true;
            } else if (is_error(got)) {
                abort(c);
                return;
            }
        }
        if (!c.connecting && (upstream_events & (POLLIN | POLLHUP | POLLERR)) != 0 &&
            c.down.wants_input()) {
            const ssize_t got = fill(c.upstream.get(), c.down);
            if (got > 0 && c.doomed) {
                ++counters_.resets;  // a server that speaks first: reset at its first bytes
                abort(c);
                return;
            }
            if (got > 0) {
                // The bytes just read are the buffer's last `got` (fill may have compacted it).
                const auto size = static_cast<std::size_t>(got);
                counters_.corrupted_bytes +=
                    c.corrupter.apply(c.down.data.data() + c.down.data.size() - size, size);
            } else if (got == 0) {
                c.down.eof = true;
            } else if (is_error(got)) {
                abort(c);  // the upstream reset: so does the client's connection
                return;
            }
        }
        if (!c.connecting && c.up.pending() > 0 && now >= c.release_at) {
            if (c.doomed) {
                ++counters_.resets;  // the request is due: the upstream "fails" instead
                abort(c);
                return;
            }
            if (!drain(c.upstream.get(), c.up, now, counters_.bytes_to_upstream)) {
                abort(c);
                return;
            }
        }
        if (!c.connecting && c.up.eof && c.up.pending() == 0 && !c.up.shut) {
            ::shutdown(c.upstream.get(), SHUT_WR);
            c.up.shut = true;
        }
        if (c.down.pending() > 0) {
            const std::size_t before = c.down.pending();
            if (!drain(c.client.get(), c.down, now, counters_.bytes_to_client)) {
                abort(c);
                return;
            }
            if (c.down.pending() < before) {
                c.next_is_request = true;
            }
        }
        if (c.down.eof && c.down.pending() == 0 && !c.down.shut) {
            ::shutdown(c.client.get(), SHUT_WR);
            c.down.shut = true;
        }
        c.done = c.up.shut && c.down.shut;
    };

    for (;;) {
        const auto now = Clock::now();
        polled.clear();
        polled.push_back({wake_.get(), POLLIN, 0});
        polled.push_back({listener_.get(), POLLIN, 0});
        auto next_release = Clock::time_point::max();
        // Bytes that may not go out yet (a held request, a pace, a slice's pause) wait for
        // the timer, not for POLLOUT: a writable socket would wake the loop at once.
        const auto writable_at = [&](Clock::time_point ready, short &events) {
            if (ready > now) {
                next_release = std::min(next_release, ready);
            } else {
                events |= POLLOUT;
            }
        };
        for (const auto &c : connections) {
            short client_events = 0;
            short upstream_events = 0;
            if (c->up.wants_input()) {
                client_events |= POLLIN;
            }
            if (c->hung) {
                polled.push_back({client_events != 0 ? c->client.get() : -1, client_events, 0});
                polled.push_back({-1, 0, 0});
                continue;
            }
            if (c->down.pending() > 0) {
                writable_at(c->down.shaper.ready_at(), client_events);
            }
            if (c->connecting) {
                upstream_events |= POLLOUT;
            } else {
                if (c->down.wants_input()) {
                    upstream_events |= POLLIN;
                }
                if (c->up.pending() > 0) {
                    writable_at(std::max(c->release_at, c->up.shaper.ready_at()), upstream_events);
                }
            }
            // A descriptor with nothing to wait for is left out (fd -1): poll would report
            // a hung-up peer on it at once, again and again.
            polled.push_back({client_events != 0 ? c->client.get() : -1, client_events, 0});
            polled.push_back({upstream_events != 0 ? c->upstream.get() : -1, upstream_events, 0});
        }
        timespec timeout{};
        timespec *timeout_pointer = nullptr;
        if (next_release != Clock::time_point::max()) {
            const auto wait = std::chrono::duration_cast<std::chrono::nanoseconds>(
                std::max(next_release - now, Clock::duration::zero()));
            timeout.tv_sec = static_cast<time_t>(wait.count() / 1000000000);
            timeout.tv_nsec = static_cast<long>(wait.count() % 1000000000);
            timeout_pointer = &timeout;
        }
        if (::ppoll(polled.data(), polled.size(), timeout_pointer, nullptr) < 0 && errno != EINTR) {
            break;  // cannot happen with valid descriptors; stop rather than spin
        }
        if (polled[0].revents != 0) {
            break;  // stopped
        }
        const auto woke = Clock::now();
        for (std::size_t i = 0; i < connections.size(); ++i) {
            step(*connections[i], polled[2 + 2 * i].revents, polled[3 + 2 * i].revents, woke);
        }
        connections.erase(std::remove_if(connections.begin(), connections.end(),
                                         [](const auto &c) { return c->done; }),
                          connections.end());
        if (polled[1].revents != 0) {
            accept_new();
        }
    }
    // Stopped: every connection in flight ends now, with a reset, whatever it was doing.
    for (auto &c : connections) {
        abort(*c);
    }
}

}  // namespace sbx::fault_proxy
