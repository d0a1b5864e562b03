#include "engine/readiness_probe.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

#include "plugins/plugin.hpp"
#include "util/command_output.hpp"
#include "util/number_parse.hpp"

namespace sbx::engine {
namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kAttemptTimeout = std::chrono::milliseconds(500);

// A connected TCP socket to 127.0.0.1:port within kAttemptTimeout, or -1.
int connect_local(int port) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) {
        return -1;
    }
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<const sockaddr *>(&address), sizeof address) != 0 &&
        errno != EINPROGRESS) {
        ::close(fd);
        return -1;
    }
    pollfd writable{fd, POLLOUT, 0};
    int error = 0;
    socklen_t size = sizeof error;
    if (::poll(&writable, 1, static_cast<int>(kAttemptTimeout.count())) != 1 ||
        ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &size) != 0 || error != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

bool tcp_ready(int port) {
    const int fd = connect_local(port);
    if (fd < 0) {
        return false;
    }
    ::close(fd);
    return true;
}

// GET `path` answered with a status line of a code below 500.
bool http_ready(int port, const std::string &path) {
    const int fd = connect_local(port);
    if (fd < 0) {
        return false;
    }
    const std::string request = "GET " + path +
                                " HTTP/1.0\r\nHost: 127.0.0.1:" + std::to_string(port) +
                                "\r\nConnection: close\r\n\r\n";
    std::string answer;
    const auto deadline = Clock::now() + kAttemptTimeout;
    if (::send(fd, request.data(), request.size(), MSG_NOSIGNAL) ==
        static_cast<ssize_t>(request.size())) {
        char buffer[256];
        while (answer.find("\r\n") == std::string::npos && Clock::now() < deadline) {
            pollfd readable{fd, POLLIN, 0};
            if (::poll(&readable, 1, 50) != 1) {
                continue;
            }
            const ssize_t got = ::recv(fd, buffer, sizeof buffer, 0);
            if (got <= 0) {
                break;
            }
            answer.append(buffer, static_cast<size_t>(got));
        }
    }
    ::close(fd);
    // "HTTP/1.1 200 OK"
    const size_t space = answer.find(' ');
    if (answer.compare(0, 5, "HTTP/") != 0 || space == std::string::npos) {
        return false;
    }
    const size_t code_end = answer.find_first_of(" \r\n", space + 1);
    const auto code =
        util::parse_uint64(std::string_view(answer).substr(space + 1, code_end - space - 1),
                           util::LeadingPlus::refused);
    return code && *code >= 100 && *code < 500;
}

// The probe command exits 0 within kAttemptTimeout (killed after it). Throws ServiceError
// when it cannot be started at all: a misspelt probe would otherwise cost the whole
// ready_timeout_ms and be reported as a service that is not ready.
bool command_ready(const std::string &service, const std::vector<std::string> &command, int port) {
    std::vector<std::string> argv;
    argv.reserve(command.size());
    for (const auto &word : command) {
        argv.push_back(with_port(word, port));
    }
    const auto result = util::command_output(argv, kAttemptTimeout);
    if (!result.error.empty()) {
        throw ServiceError("the ready command of service '" + service +
                           "' cannot be run: " + result.error);
    }
    return result.ok();
}

std::string last_output(const ServiceProcess &process) {
    std::string text = process.tail(true, 400);
    if (text.empty()) {
        text = process.tail(false, 400);
    }
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) {
        text.pop_back();
    }
    return text.empty() ? "no output" : "last output: " + text;
}

}  // namespace

void wait_until_ready(const config::Service &service, const ServiceProcess &process) {
    const auto started = Clock::now();
    const auto deadline = started + std::chrono::milliseconds(service.ready_timeout_ms);
    auto pause = std::chrono::milliseconds(5);
    for (;;) {
        if (plugins::cancel_requested()) {
            throw plugins::PluginCallError(
                SBX_CANCELLED, "interrupted while service '" + service.name + "' was starting");
        }
        if (const auto ended = process.ended()) {
            throw ServiceError("service '" + service.name + "' " + *ended +
                               " before it was ready (" + last_output(process) + ")");
        }
        bool ready = false;
        switch (service.probe) {
            case config::Service::Probe::tcp:
                ready = tcp_ready(process.port());
                break;
            case config::Service::Probe::http:
                ready = http_ready(process.port(), service.http_path);
                break;
            case config::Service::Probe::command:
                ready = command_ready(service.name, service.probe_command, process.port());
                break;
        }
        if (ready) {
            return;
        }
        if (Clock::now() >= deadline) {
            throw ServiceError("service '" + service.name + "' is not ready after " +
                               std::to_string(service.ready_timeout_ms) +
                               " ms (ready_timeout_ms); " + last_output(process));
        }
        std::this_thread::sleep_for(pause);
        // Short: a start is usually ready within a few hundred ms, and each wait adds to it.
        pause = std::min(pause * 2, std::chrono::milliseconds(25));
    }
}

}  // namespace sbx::engine
