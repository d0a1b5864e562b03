// One thread per mock, one poll() loop: a run's mock answers a handful of requests, so a
// thread of its own costs less than a shared event loop would in code, and its life is the
// run's. Each connection gets one answer and `Connection: close`: the responder then
// shuts its side and reads until the client closes, so an unread request body never turns
// the close into a reset that would lose the answer.
#include "engine/mock_responder.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "engine/service_error.hpp"

namespace sbx::engine {
namespace {

constexpr std::size_t kMaxConnections = 256;    // more wait in the listen backlog
constexpr std::size_t kMaxHeaderBytes = 65536;  // a longer header block is answered as is

const char *reason_phrase(int status) {
    switch (status) {
        case 200:
            return "OK";
        case 201:
            return "Created";
        case 202:
            return "Accepted";
        case 204:
            return "No Content";
        case 301:
            return "Moved Permanently";
        case 302:
            return "Found";
        case 304:
            return "Not Modified";
        case 400:
            return "Bad Request";
        case 401:
            return "Unauthorized";
        case 403:
            return "Forbidden";
        case 404:
            return "Not Found";
        case 409:
            return "Conflict";
        case 429:
            return "Too Many Requests";
        case 500:
            return "Internal Server Error";
        case 502:
            return "Bad Gateway";
        case 503:
            return "Service Unavailable";
        case 504:
            return "Gateway Timeout";
        default:
            return "Status";
    }
}

struct Connection {
    UniqueFd fd;
    enum class State { reading, writing, draining } state = State::reading;
    std::string request;   // the header block read so far
    std::size_t sent = 0;  // bytes of the answer written
};

}  // namespace

std::string mock_answer(const config::NetworkMock &mock) {
    std::string answer =
        "HTTP/1.1 " + std::to_string(mock.status) + " " + reason_phrase(mock.status) + "\r\n";
    for (const auto &[name, value] : mock.headers) {
        answer.append(name).append(": ").append(value).append("\r\n");
    }
    answer.append("Content-Length: ").append(std::to_string(mock.body.size())).append("\r\n");
    answer.append("Connection: close\r\n\r\n").append(mock.body);
    return answer;
}

MockResponder::MockResponder(const config::NetworkMock &mock)
    : name_(mock.name), answer_(mock_answer(mock)) {
    listener_.reset(::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t size = sizeof address;
    if (!listener_ || ::bind(listener_.get(), reinterpret_cast<sockaddr *>(&address), size) != 0 ||
        ::listen(listener_.get(), SOMAXCONN) != 0 ||
        ::getsockname(listener_.get(), reinterpret_cast<sockaddr *>(&address), &size) != 0) {
        throw ServiceError("network mock '" + name_ +
                           "' cannot listen on 127.0.0.1: " + std::strerror(errno));
    }
    port_ = ntohs(address.sin_port);
    wake_.reset(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
    if (!wake_) {
        throw ServiceError("network mock '" + name_ + "': eventfd: " + std::strerror(errno));
    }
    thread_ = std::thread([this] { serve(); });
}

MockResponder::~MockResponder() {
    const std::uint64_t one = 1;
    // An eventfd write of 1 cannot fail short of a counter at its maximum.
    (void)!::write(wake_.get(), &one, sizeof one);
    thread_.join();
}

void MockResponder::serve() noexcept {
    std::vector<Connection> connections;
    std::vector<pollfd> polled;
    for (;;) {
        polled.clear();
        polled.push_back({wake_.get(), POLLIN, 0});
        polled.push_back({listener_.get(),
                          static_cast<short>(connections.size() < kMaxConnections ? POLLIN : 0),
                          0});
        for (const Connection &connection : connections) {
            const bool writing = connection.state == Connection::State::writing;
            polled.push_back(
                {connection.fd.get(), static_cast<short>(writing ? POLLOUT : POLLIN), 0});
        }
        if (::poll(polled.data(), polled.size(), -1) < 0) {
            if (errno == EINTR) {
                continue;
            }
            return;  // cannot happen with valid descriptors; the run's requests then fail
        }
        if (polled[0].revents != 0) {
            return;  // the destructor asks; the connections close with `connections`
        }
        // Connections first: accepting appends to the vector the results index into.
        for (std::size_t i = 0; i < connections.size(); ++i) {
            Connection &connection = connections[i];
            const short events = polled[i + 2].revents;
            if (events == 0) {
                continue;
            }
            bool done = false;
            if (connection.state == Connection::State::writing) {
                const ssize_t wrote = ::send(connection.fd.get(), answer_.data() + connection.sent,
                                             answer_.size() - connection.sent, MSG_NOSIGNAL);
                if (wrote < 0) {
                    done = errno != EAGAIN && errno != EINTR;
                } else {
                    connection.sent += static_cast<std::size_t>(wrote);
                    if (connection.sent == answer_.size()) {
                        ::shutdown(connection.fd.get(), SHUT_WR);
                        connection.state = Connection::State::draining;
                    }
                }
            } else {
                char buffer[4096];
                const ssize_t got = ::recv(connection.fd.get(), buffer, sizeof buffer, 0);
                if (got == 0 || (got < 0 && errno != EAGAIN && errno != EINTR)) {
                    done = true;
                } else if (got > 0 && connection.state == Connection::State::reading) {
                    connection.request.append(buffer, static_cast<std::size_t>(got));
                    if (connection.request.find("\r\n\r\n") != std::string::npos ||
                        connection.request.size() >= kMaxHeaderBytes) {
                        requests_.fetch_add(1);
                        connection.state = Connection::State::writing;
                        connection.request.clear();
                    }
                }
            }
            if (done) {
                connection.fd.reset();
            }
        }
        connections.erase(
            std::remove_if(connections.begin(), connections.end(),
                           [](const Connection &connection) { return !connection.fd; }),
            connections.end());
        if ((polled[1].revents & POLLIN) != 0) {
            while (connections.size() < kMaxConnections) {
                UniqueFd accepted(
                    ::accept4(listener_.get(), nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC));
                if (!accepted) {
                    break;  // EAGAIN: none left; anything else: the client gave up
                }
                Connection connection;
                connection.fd = std::move(accepted);
                connections.push_back(std::move(connection));
            }
        }
    }
}

}  // namespace sbx::engine
