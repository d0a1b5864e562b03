// The proxy's poll loop. Every socket is non-blocking; the loop never waits for a peer, only
// in ppoll, which the stop eventfd, the sockets and the next timer wake (a held-back
// request, a paced send, the next slice). What happens to each connection's bytes is
// ProxiedConnection's; the loop accepts, polls and drops finished connections.
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

namespace sbx::fault_proxy {
namespace {

// Connections accepted per wake-up, so a flood of them cannot starve the others.
constexpr int kAcceptsPerWake = 64;

void no_delay(int fd) {
    // A proxy passes timing through: Nagle plus delayed ACKs would add up to 40 ms.
    const int on = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
}

// The ppoll timeout that wakes the loop at `wake_at`; nullptr (no timeout) for never.
const timespec *timeout_until(Clock::time_point wake_at, Clock::time_point now, timespec &storage) {
    if (wake_at == Clock::time_point::max()) {
        return nullptr;
    }
    const auto wait = std::chrono::duration_cast<std::chrono::nanoseconds>(
        std::max(wake_at - now, Clock::duration::zero()));
    storage.tv_sec = static_cast<time_t>(wait.count() / 1000000000);
    storage.tv_nsec = static_cast<long>(wait.count() % 1000000000);
    return &storage;
}

}  // namespace

ProxyServer::ProxyServer(ProxySettings settings)
    : settings_(std::move(settings)),
      listener_(listen_on(settings_.listen, settings_.netns,
                          "the fault proxy of upstream '" + settings_.name + "'")),
      wake_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)),
      address_(to_text(local_address(listener_.get()))),
      record_(settings_.record_folder, settings_.name, address_, to_text(settings_.target)),
      shape_{std::chrono::milliseconds(settings_.latency_ms), settings_.bandwidth_bits_per_s / 8,
             settings_.slice_bytes, std::chrono::milliseconds(settings_.slice_delay_ms),
             settings_.corrupt_rate} {
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
    std::vector<std::unique_ptr<ProxiedConnection>> connections;
    std::vector<pollfd> polled;
    for (;;) {
        const auto now = Clock::now();
        polled.clear();
        polled.push_back({wake_.get(), POLLIN, 0});
        polled.push_back({listener_.get(), POLLIN, 0});
        auto wake_at = Clock::time_point::max();
        for (const auto &c : connections) {
            const SocketEvents wanted = c->wanted_events(now, wake_at);
            // A descriptor with nothing to wait for is left out (fd -1): poll would report
            // a hung-up peer on it at once, again and again.
            polled.push_back({wanted.client != 0 ? c->client.get() : -1, wanted.client, 0});
            polled.push_back({wanted.upstream != 0 ? c->upstream.get() : -1, wanted.upstream, 0});
        }
        timespec storage{};
        const timespec *timeout = timeout_until(wake_at, now, storage);
        if (::ppoll(polled.data(), polled.size(), timeout, nullptr) < 0 && errno != EINTR) {
            break;  // cannot happen with valid descriptors; stop rather than spin
        }
        if (polled[0].revents != 0) {
            break;  // stopped
        }
        const auto woke = Clock::now();
        for (std::size_t i = 0; i < connections.size(); ++i) {
            connections[i]->advance({polled[2 + 2 * i].revents, polled[3 + 2 * i].revents}, woke,
                                    shape_.latency, counters_);
        }
        connections.erase(std::remove_if(connections.begin(), connections.end(),
                                         [](const auto &c) { return c->done; }),
                          connections.end());
        if (polled[1].revents != 0) {
            accept_new(connections);
        }
    }
    // Stopped: every connection in flight ends now, with a reset, whatever it was doing.
    for (auto &c : connections) {
        c->abort();
    }
}

void ProxyServer::accept_new(std::vector<std::unique_ptr<ProxiedConnection>> &connections) {
    for (int i = 0; i < kAcceptsPerWake; ++i) {
        UniqueFd client(::accept4(listener_.get(), nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC));
        if (!client) {
            if (errno == ECONNABORTED || errno == EINTR) {
                continue;
            }
            return;  // EAGAIN, or out of descriptors: try again on the next wake-up
        }
        const auto forced = static_cast<Fate>(forced_.exchange(static_cast<int>(Fate::none)));
        const auto ticket =
            settings_.schedule->next(forced == Fate::reset  ? ConnectionSchedule::Forced::reset
                                     : forced == Fate::hang ? ConnectionSchedule::Forced::hang
                                                            : ConnectionSchedule::Forced::none);
        ++counters_.connections;
        auto c = std::make_unique<ProxiedConnection>(
            ticket.index, shape_,
            derive_seed(settings_.seed, settings_.name, 2 * ticket.index + 1));
        if (forced == Fate::corrupt) {
            c->corrupter.force_next();
        }
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
        if (connect_upstream(*c)) {
            connections.push_back(std::move(c));
        }
    }
}

bool ProxyServer::connect_upstream(ProxiedConnection &c) const {
    c.upstream = UniqueFd(::socket(settings_.target.storage.ss_family,
                                   SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
    if (!c.upstream) {
        c.abort();
        return false;
    }
    no_delay(c.upstream.get());
    if (::connect(c.upstream.get(), settings_.target.get(), settings_.target.size) == 0) {
        c.connecting = false;
    } else if (errno != EINPROGRESS) {
        c.abort();  // the upstream is down: the client sees a reset
        return false;
    }
    return true;
}

}  // namespace sbx::fault_proxy
