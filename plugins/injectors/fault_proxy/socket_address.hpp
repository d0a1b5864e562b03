// Sockets of the fault proxy: an owning descriptor, host:port text <-> socket addresses,
// and a listening socket made in the host's network namespace or in the run's.
#pragma once

#include <sys/socket.h>

#include <string>

#include <sbx/unique_fd.hpp>

namespace sbx::fault_proxy {

struct SocketAddress {
    sockaddr_storage storage{};
    socklen_t size = 0;
    [[nodiscard]] const sockaddr *get() const {
        return reinterpret_cast<const sockaddr *>(&storage);
    }
};

// "host:port" or "[v6]:port" -> an address, names resolved (the first answer wins).
// Throws sbx::Error(SBX_INVALID) naming `what` ("listen of upstream 'api'").
SocketAddress resolve(const std::string &host_port, const std::string &what);

// "127.0.0.1:18080", "[::1]:18080".
std::string to_text(const SocketAddress &address);

// A non-blocking, close-on-exec listening TCP socket bound to `address` (SO_REUSEADDR),
// made inside the network namespace `netns` (a path such as /run/netns/NAME) when it is not
// empty: a socket stays in the namespace it was made in, so the target, running there,
// reaches it on its own loopback. Throws sbx::Error with the errno text.
UniqueFd listen_on(const SocketAddress &address, const std::string &netns, const std::string &what);

// The address a socket is bound to (the port the kernel chose for port 0).
SocketAddress local_address(int fd);

// Ends a TCP connection with a reset (RST), as a crashed peer would: SO_LINGER 0, and a
// disconnect that resets the socket itself even when a fork of the host holds a copy of
// the descriptor (a close would then send nothing). Then closes it.
void reset_connection(UniqueFd &fd);

}  // namespace sbx::fault_proxy
