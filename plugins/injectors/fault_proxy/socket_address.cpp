// getaddrinfo, bind/listen (in a network namespace, on a socket made there), and resets.
#include "socket_address.hpp"

#include <sbx/plugin.hpp>

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "support/network_entry.hpp"
#include "support/number_parse.hpp"

namespace sbx::fault_proxy {

namespace {

std::string errno_text(int error) {
    return std::strerror(error);
}

// Binds `fd` (a stream socket, non-blocking) to `address` and listens.
UniqueFd bound_listener(UniqueFd fd, const SocketAddress &address, const std::string &what) {
    const int on = 1;
    ::setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    if (::bind(fd.get(), address.get(), address.size) != 0) {
        const int error = errno;
        throw Error(
            SBX_ERROR,
            "cannot listen on " + to_text(address) + " (" + what + "): " + errno_text(error) +
                (error == EADDRINUSE ? "; another program uses that port: choose a free one, "
                                       "or port 0 for any"
                                     : ""));
    }
    if (::listen(fd.get(), SOMAXCONN) != 0) {
        throw Error(SBX_ERROR, "cannot listen on " + to_text(address) + " (" + what +
                                   "): " + errno_text(errno));
    }
    return fd;
}

}  // namespace

SocketAddress resolve(const std::string &host_port, const std::string &what) {
    std::string host;
    std::string port;
    const auto fail = [&](const std::string &why) {
        throw Error(SBX_INVALID, what + " '" + host_port + "' " + why +
                                     "; write host:port such as 127.0.0.1:18080, or [::1]:18080");
    };
    if (!host_port.empty() && host_port.front() == '[') {
        const auto close = host_port.find(']');
        if (close == std::string::npos || close + 1 >= host_port.size() ||
            host_port[close + 1] != ':') {
            fail("is not [address]:port");
        }
        host = host_port.substr(1, close - 1);
        port = host_port.substr(close + 2);
    } else {
        const auto colon = host_port.rfind(':');
        if (colon == std::string::npos || host_port.find(':') != colon) {
            fail("is not host:port");
        }
        host = host_port.substr(0, colon);
        port = host_port.substr(colon + 1);
    }
    const auto number = support::parse_uint64(port, support::LeadingPlus::refused);
    if (host.empty() || !number || port.size() > 5 || *number > 65535) {
        fail("has no host or no port from 0 to 65535");
    }
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICSERV;
    addrinfo *found = nullptr;
    const int status = ::getaddrinfo(host.c_str(), port.c_str(), &hints, &found);
    if (status != 0 || found == nullptr) {
        throw Error(SBX_INVALID, what + " '" + host_port + "': cannot resolve '" + host +
                                     "': " + ::gai_strerror(status));
    }
    SocketAddress address;
    std::memcpy(&address.storage, found->ai_addr, found->ai_addrlen);
    address.size = found->ai_addrlen;
    ::freeaddrinfo(found);
    return address;
}

std::string to_text(const SocketAddress &address) {
    char host[INET6_ADDRSTRLEN] = {};
    if (address.storage.ss_family == AF_INET6) {
        const auto *v6 = reinterpret_cast<const sockaddr_in6 *>(&address.storage);
        ::inet_ntop(AF_INET6, &v6->sin6_addr, host, sizeof host);
        return "[" + std::string(host) + "]:" + std::to_string(ntohs(v6->sin6_port));
    }
    const auto *v4 = reinterpret_cast<const sockaddr_in *>(&address.storage);
    ::inet_ntop(AF_INET, &v4->sin_addr, host, sizeof host);
    return std::string(host) + ":" + std::to_string(ntohs(v4->sin_port));
}

UniqueFd listen_on(const SocketAddress &address, const std::string &netns,
                   const std::string &what) {
    const int type = SOCK_STREAM | SOCK_NONBLOCK;
    if (netns.empty()) {
        UniqueFd fd(::socket(address.storage.ss_family, type | SOCK_CLOEXEC, 0));
        if (!fd) {
            throw Error(SBX_ERROR, "cannot make a socket for " + what + ": " + errno_text(errno));
        }
        return bound_listener(std::move(fd), address, what);
    }
    // A socket made inside the namespace (also one a normal user made) stays there: bound
    // and accepted on from here, it listens there.
    const support::NetworkEntry inside(netns);
    return bound_listener(inside.socket(address.storage.ss_family, type, 0, "a socket for " + what),
                          address, what + ", in network namespace " + netns);
}

SocketAddress local_address(int fd) {
    SocketAddress address;
    address.size = sizeof address.storage;
    ::getsockname(fd, reinterpret_cast<sockaddr *>(&address.storage), &address.size);
    return address;
}

void reset_connection(UniqueFd &fd) {
    if (!fd) {
        return;
    }
    const linger hard{1, 0};
    ::setsockopt(fd.get(), SOL_SOCKET, SO_LINGER, &hard, sizeof hard);
    sockaddr unspecified{};
    unspecified.sa_family = AF_UNSPEC;
    // Fails harmlessly on a socket that is not connected (one still connecting, say).
    (void)::connect(fd.get(), &unspecified, sizeof unspecified);
    fd.reset();
}

}  // namespace sbx::fault_proxy
