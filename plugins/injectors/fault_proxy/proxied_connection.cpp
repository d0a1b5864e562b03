// The byte moves of one proxied connection. Each step returns false once it has aborted
// the connection, so that nothing else is tried on its sockets.
#include "proxied_connection.hpp"

#include <sys/socket.h>

#include <algorithm>
#include <cerrno>

#include "socket_address.hpp"

namespace sbx::fault_proxy {
namespace {

constexpr short kReadable = POLLIN | POLLHUP | POLLERR;

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

bool would_block() {
    return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;
}

bool is_error(ssize_t result) {
    return result < 0 && !would_block();
}

// Writes what it can of `pipe`, as far as its shaper lets it at `now`. false on an error
// other than EAGAIN.
bool drain(int fd, Pipe &pipe, Clock::time_point now, std::atomic<std::uint64_t> &counter) {
    while (pipe.pending() > 0 && pipe.shaper.ready_at() <= now) {
        const std::size_t size = std::min(pipe.pending(), pipe.shaper.allowance());
        const ssize_t put = ::send(fd, pipe.data.data() + pipe.sent, size, MSG_NOSIGNAL);
        if (put < 0) {
            return would_block();
        }
        pipe.sent += static_cast<std::size_t>(put);
        counter += static_cast<std::uint64_t>(put);
        pipe.shaper.sent(static_cast<std::size_t>(put), now);
    }
    return true;
}

}  // namespace

ProxiedConnection::ProxiedConnection(std::uint64_t number, const ConnectionShape &shape,
                                     std::uint64_t corrupt_seed)
    : index(number),
      up(SendShaper(shape.bytes_per_second, 0, {})),
      down(SendShaper(shape.bytes_per_second, shape.slice_bytes, shape.slice_delay)),
      corrupter(shape.corrupt_rate, corrupt_seed) {}

void ProxiedConnection::abort() {
    reset_connection(client);
    reset_connection(upstream);
    done = true;
}

void ProxiedConnection::advance(SocketEvents events, Clock::time_point now,
                                std::chrono::milliseconds latency, ProxyCounters &counters) {
    if (hung) {
        advance_hung(events.client);
        return;
    }
    if (!finish_connect(events.upstream)) {
        return;
    }
    if ((events.client & kReadable) != 0 && up.wants_input() && !read_client(now, latency)) {
        return;
    }
    if (!connecting && (events.upstream & kReadable) != 0 && down.wants_input() &&
        !read_upstream(counters)) {
        return;
    }
    if (!write_upstream(now, counters) || !write_client(now, counters)) {
        return;
    }
    pass_on_fins();
    done = up.shut && down.shut;
}

// Reads and drops what a hung connection's client sends; a reset from the client ends it.
void ProxiedConnection::advance_hung(short client_events) {
    if ((client_events & kReadable) == 0) {
        return;
    }
    char sink[16384];
    for (;;) {
        const ssize_t got = ::recv(client.get(), sink, sizeof sink, 0);
        if (got == 0) {
            up.eof = true;  // a half-close: still nothing comes back, not even a FIN
            return;
        }
        if (got < 0) {
            if (!would_block()) {
                abort();
            }
            return;
        }
    }
}

bool ProxiedConnection::finish_connect(short upstream_events) {
    if (!connecting || (upstream_events & (POLLOUT | POLLERR | POLLHUP)) == 0) {
        return true;
    }
    int error = 0;
    socklen_t size = sizeof error;
    ::getsockopt(upstream.get(), SOL_SOCKET, SO_ERROR, &error, &size);
    if (error != 0) {
        abort();
        return false;
    }
    connecting = false;
    return true;
}

bool ProxiedConnection::read_client(Clock::time_point now, std::chrono::milliseconds latency) {
    const bool was_empty = up.pending() == 0;
    const ssize_t got = fill(client.get(), up);
    if (got > 0 && was_empty && next_is_request) {
        release_at = now + latency;
        next_is_request = false;
    } else if (got == 0) {
        up.eof = true;
    } else if (is_error(got)) {
        abort();
        return false;
    }
    return true;
}

bool ProxiedConnection::read_upstream(ProxyCounters &counters) {
    const ssize_t got = fill(upstream.get(), down);
    if (got > 0 && doomed) {
        ++counters.resets;  // a server that speaks first: reset at its first bytes
        abort();
        return false;
    }
    if (got > 0) {
        // The bytes just read are the buffer's last `got` (fill may have compacted it).
        const auto size = static_cast<std::size_t>(got);
        counters.corrupted_bytes +=
            corrupter.apply(down.data.data() + down.data.size() - size, size);
    } else if (got == 0) {
        down.eof = true;
    } else if (is_error(got)) {
        abort();  // the upstream reset: so does the client's connection
        return false;
    }
    return true;
}

bool ProxiedConnection::write_upstream(Clock::time_point now, ProxyCounters &counters) {
    if (connecting || up.pending() == 0 || now < release_at) {
        return true;
    }
    if (doomed) {
        ++counters.resets;  // the request is due: the upstream "fails" instead
        abort();
        return false;
    }
    if (!drain(upstream.get(), up, now, counters.bytes_to_upstream)) {
        abort();
        return false;
    }
    return true;
}

bool ProxiedConnection::write_client(Clock::time_point now, ProxyCounters &counters) {
    if (down.pending() == 0) {
        return true;
    }
    const std::size_t before = down.pending();
    if (!drain(client.get(), down, now, counters.bytes_to_client)) {
        abort();
        return false;
    }
    if (down.pending() < before) {
        next_is_request = true;
    }
    return true;
}

void ProxiedConnection::pass_on_fins() {
    if (!connecting && up.eof && up.pending() == 0 && !up.shut) {
        ::shutdown(upstream.get(), SHUT_WR);
        up.shut = true;
    }
    if (down.eof && down.pending() == 0 && !down.shut) {
        ::shutdown(client.get(), SHUT_WR);
        down.shut = true;
    }
}

SocketEvents ProxiedConnection::wanted_events(Clock::time_point now,
                                              Clock::time_point &wake_at) const {
    SocketEvents wanted;
    const auto writable_at = [&](Clock::time_point ready, short &events) {
        if (ready > now) {
            wake_at = std::min(wake_at, ready);
        } else {
            events |= POLLOUT;
        }
    };
    if (up.wants_input()) {
        wanted.client |= POLLIN;
    }
    if (hung) {
        return wanted;
    }
    if (down.pending() > 0) {
        writable_at(down.shaper.ready_at(), wanted.client);
    }
    if (connecting) {
        wanted.upstream |= POLLOUT;
        return wanted;
    }
    if (down.wants_input()) {
        wanted.upstream |= POLLIN;
    }
    if (up.pending() > 0) {
        writable_at(std::max(release_at, up.shaper.ready_at()), wanted.upstream);
    }
    return wanted;
}

}  // namespace sbx::fault_proxy
