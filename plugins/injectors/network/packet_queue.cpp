// The NFQUEUE helper. A thread rather than a process: it needs no pid file and cannot outlive
// the host (a SIGKILLed host takes it along, and the kernel drops its queue). It never
// enters the namespace: its sockets are made there (network_entry.hpp, which works without
// root too) and a socket acts where it was made.
//
// Verdicts may be given in any order, so holding a packet costs nothing but its id: the
// kernel keeps the packet until the verdict. Duplicates are the one case that needs the
// bytes: the copy goes out through a raw socket with a mark the queue rule skips.
#include "packet_queue.hpp"

#include <sbx/plugin.hpp>

// <arpa/inet.h> before <linux/netfilter.h>, which otherwise redefines in_addr.
#include <arpa/inet.h>
#include <fcntl.h>
#include <linux/netfilter.h>
#include <linux/netlink.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <libnetfilter_queue/libnetfilter_queue.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <future>
#include <queue>
#include <random>
#include <utility>
#include <vector>

#include <sbx/unique_fd.hpp>

#include "support/network_entry.hpp"
#include "support/system_tool.hpp"

namespace sbx::network {

using support::find_tool;
using support::run_tool_checked;
namespace {

std::string errno_text(int error) {
    return std::string(std::strerror(error)) + " (errno " + std::to_string(error) + ")";
}

std::int64_t monotonic_ns() {
    timespec now{};
    ::clock_gettime(CLOCK_MONOTONIC, &now);
    return std::int64_t{now.tv_sec} * 1000000000 + now.tv_nsec;
}

// A packet whose verdict waits for its release time.
struct Held {
    std::int64_t release_ns = 0;
    std::uint64_t order = 0;  // arrival order: equal release times leave first in, first out
    std::uint32_t id = 0;
    std::vector<unsigned char> copy;  // the bytes to send once more, when duplicated

    bool operator>(const Held &other) const {
        return release_ns != other.release_ns ? release_ns > other.release_ns : order > other.order;
    }
};

// Everything the thread owns; built and destroyed inside it.
class Worker {
  public:
    explicit Worker(const PacketImpairment &impairment)
        : impairment_(impairment), random_(impairment.seed) {}
    ~Worker() {
        if (queue_ != nullptr) {
            ::nfq_destroy_queue(queue_);
        }
        if (handle_ != nullptr) {
            ::nfq_close(handle_);
        }
    }
    Worker(const Worker &) = delete;
    Worker &operator=(const Worker &) = delete;

    // Binds the queue and opens the duplicate sockets in the namespace `inside`.
    void open(const support::NetworkEntry &inside) {
        handle_ = ::nfq_open();
        if (handle_ == nullptr) {
            throw Error(SBX_ERROR, "nfq_open failed: " + errno_text(errno) +
                                       "; the kernel needs nfnetlink_queue (CONFIG_NETFILTER_"
                                       "NETLINK_QUEUE)");
        }
        adopt_socket_inside(inside);
        queue_ = ::nfq_create_queue(handle_, kQueueNumber, &Worker::on_packet, this);
        if (queue_ == nullptr) {
            throw Error(SBX_ERROR, "cannot bind NFQUEUE " + std::to_string(kQueueNumber) + " in " +
                                       inside.path() + ": " + errno_text(errno) +
                                       "; the kernel needs nfnetlink_queue and the host "
                                       "CAP_NET_ADMIN there");
        }
        // The bytes cross to user space only when a duplicate needs them.
        const bool copy_bytes = impairment_.duplication > 0;
        if (::nfq_set_mode(queue_, copy_bytes ? NFQNL_COPY_PACKET : NFQNL_COPY_META,
                           copy_bytes ? 0xffff : 0) < 0 ||
            ::nfq_set_queue_maxlen(queue_, kQueueLength) < 0) {
            throw Error(SBX_ERROR, "cannot configure NFQUEUE: " + errno_text(errno));
        }
        ::nfnl_rcvbufsiz(::nfq_nfnlh(handle_), kReceiveBufferBytes);
        if (impairment_.duplication > 0) {
            raw4_ = open_raw(inside, AF_INET);
            raw6_ = open_raw(inside, AF_INET6);
        }
    }

    // Until `stop_fd` becomes readable: receive packets, release those whose time came.
    void serve(int stop_fd) {
        std::vector<char> buffer(kReceiveBytes);
        const int queue_fd = ::nfq_fd(handle_);
        for (;;) {
            timespec timeout{};
            timespec *wait = nullptr;
            if (!held_.empty()) {
                const std::int64_t left =
                    std::max<std::int64_t>(0, held_.top().release_ns - monotonic_ns());
                timeout.tv_sec = static_cast<time_t>(left / 1000000000);
                timeout.tv_nsec = static_cast<long>(left % 1000000000);
                wait = &timeout;
            }
            pollfd fds[2] = {{queue_fd, POLLIN, 0}, {stop_fd, POLLIN, 0}};
            if (::ppoll(fds, 2, wait, nullptr) < 0 && errno != EINTR) {
                host::log(SBX_LOG_ERROR, "NFQUEUE helper: ppoll: " + errno_text(errno));
                return;
            }
            if ((fds[1].revents & POLLIN) != 0) {
                return;
            }
            if ((fds[0].revents & POLLIN) != 0) {
                drain(queue_fd, buffer);
            }
            release_due();
        }
    }

    [[nodiscard]] std::string summary() const {
        return std::to_string(seen_) + " packets, " + std::to_string(dropped_) + " dropped, " +
               std::to_string(duplicated_) + " duplicated, " + std::to_string(overruns_) +
               " queue overruns";
    }

  private:
    static constexpr std::uint32_t kQueueLength = 8192;  // packets held at once
    static constexpr unsigned kReceiveBufferBytes = 16U << 20;
    static constexpr std::size_t kReceiveBytes = 0x10000 + 4096;  // a whole packet + headers

    static int on_packet(nfq_q_handle * /*queue*/, nfgenmsg * /*message*/, nfq_data *packet,
                         void *self) {
        static_cast<Worker *>(self)->decide(packet);
        return 0;
    }

    // nfq_open() made its netlink socket in the host's namespace, where the queue is not.
    // Its descriptor now refers to one made inside instead, bound to the same port id
    // (port ids are per namespace), so that the library's bookkeeping still holds.
    void adopt_socket_inside(const support::NetworkEntry &inside) {
        const int fd = ::nfq_fd(handle_);
        sockaddr_nl local{};
        socklen_t size = sizeof local;
        if (::getsockname(fd, reinterpret_cast<sockaddr *>(&local), &size) != 0) {
            throw Error(SBX_ERROR, "getsockname on the NFQUEUE socket: " + errno_text(errno));
        }
        const UniqueFd made =
            inside.socket(AF_NETLINK, SOCK_RAW, NETLINK_NETFILTER, "the NFQUEUE socket");
        if (::dup3(made.get(), fd, O_CLOEXEC) < 0 ||
            ::bind(fd, reinterpret_cast<const sockaddr *>(&local), sizeof local) != 0) {
            throw Error(SBX_ERROR, "cannot bind the NFQUEUE socket made in " + inside.path() +
                                       ": " + errno_text(errno));
        }
    }

    static UniqueFd open_raw(const support::NetworkEntry &inside, int family) {
        UniqueFd socket_fd =
            inside.socket(family, SOCK_RAW, IPPROTO_RAW, "the raw socket that sends duplicates");
        const std::uint32_t mark = kDuplicateMark;
        if (::setsockopt(socket_fd.get(), SOL_SOCKET, SO_MARK, &mark, sizeof mark) != 0) {
            throw Error(SBX_ERROR,
                        "cannot open the raw socket that sends duplicates: " + errno_text(errno));
        }
        return socket_fd;
    }

    // A uniform double in [0, 1) from 53 bits of the generator: the same on every platform,
    // unlike std::uniform_real_distribution.
    double uniform() { return static_cast<double>(random_() >> 11) * 0x1.0p-53; }

    void decide(nfq_data *packet) {
        const nfqnl_msg_packet_hdr *header = ::nfq_get_msg_packet_hdr(packet);
        if (header == nullptr) {
            return;
        }
        const std::uint32_t id = ntohl(header->packet_id);
        ++seen_;
        // Three draws per packet whatever happens to it, so that the fate of packet n
        // depends on the seed and n alone.
        const double loss_draw = uniform();
        const double duplicate_draw = uniform();
        const double jitter_draw = uniform();
        if (loss_draw < impairment_.loss) {
            ++dropped_;
            ::nfq_set_verdict(queue_, id, NF_DROP, 0, nullptr);
            return;
        }
        const double share = ::nfq_get_outdev(packet) == loopback_index_ ? 0.5 : 1.0;
        const double delay_ms =
            share *
            std::max(0.0, impairment_.delay_ms + (2 * jitter_draw - 1) * impairment_.jitter_ms);
        Held held;
        held.release_ns = monotonic_ns() + static_cast<std::int64_t>(delay_ms * 1e6);
        held.order = seen_;
        held.id = id;
        if (duplicate_draw < impairment_.duplication) {
            unsigned char *bytes = nullptr;
            const int length = ::nfq_get_payload(packet, &bytes);
            if (length > 0) {
                held.copy.assign(bytes, bytes + length);
            }
        }
        if (delay_ms <= 0) {
            release(held);
        } else {
            held_.push(std::move(held));
        }
    }

    void drain(int queue_fd, std::vector<char> &buffer) {
        for (;;) {
            const ssize_t received = ::recv(queue_fd, buffer.data(), buffer.size(), MSG_DONTWAIT);
            if (received > 0) {
                ::nfq_handle_packet(handle_, buffer.data(), static_cast<int>(received));
            } else if (received < 0 && errno == ENOBUFS) {
                ++overruns_;  // the kernel dropped messages: the socket buffer was full
            } else if (received < 0 && errno == EINTR) {
                continue;
            } else {
                return;  // EAGAIN: nothing more for now
            }
        }
    }

    void release_due() {
        const std::int64_t now = monotonic_ns();
        while (!held_.empty() && held_.top().release_ns <= now) {
            release(held_.top());
            held_.pop();
        }
    }

    void release(const Held &held) {
        ::nfq_set_verdict(queue_, held.id, NF_ACCEPT, 0, nullptr);
        if (!held.copy.empty()) {
            send_copy(held.copy);
        }
    }

    void send_copy(const std::vector<unsigned char> &packet) {
        const int version = packet[0] >> 4;
        if (version == 4 && packet.size() >= 20 && raw4_.get() >= 0) {
            sockaddr_in to{};
            to.sin_family = AF_INET;
            std::memcpy(&to.sin_addr, &packet[16], 4);
            if (::sendto(raw4_.get(), packet.data(), packet.size(), 0,
                         reinterpret_cast<const sockaddr *>(&to), sizeof to) >= 0) {
                ++duplicated_;
            }
        } else if (version == 6 && packet.size() >= 40 && raw6_.get() >= 0) {
            sockaddr_in6 to{};
            to.sin6_family = AF_INET6;
            std::memcpy(&to.sin6_addr, &packet[24], 16);
            if (::sendto(raw6_.get(), packet.data(), packet.size(), 0,
                         reinterpret_cast<const sockaddr *>(&to), sizeof to) >= 0) {
                ++duplicated_;
            }
        }
    }

    PacketImpairment impairment_;
    std::mt19937_64 random_;
    // Loopback is interface 1 in every network namespace (LOOPBACK_IFINDEX).
    unsigned loopback_index_ = 1;
    nfq_handle *handle_ = nullptr;
    nfq_q_handle *queue_ = nullptr;
    UniqueFd raw4_;
    UniqueFd raw6_;
    std::priority_queue<Held, std::vector<Held>, std::greater<>> held_;
    std::uint64_t seen_ = 0;
    std::uint64_t dropped_ = 0;
    std::uint64_t duplicated_ = 0;
    std::uint64_t overruns_ = 0;
};

// The rules that send every packet the namespace sends, but the helper's duplicates, to
// the queue. Inside the namespace only: they go away with it.
void add_queue_rules(const support::NetworkEntry &inside) {
    char mark[16];
    std::snprintf(mark, sizeof mark, "0x%x", static_cast<unsigned>(kDuplicateMark));
    const std::string rules = std::string("*filter\n-A OUTPUT -m mark ! --mark ") + mark +
                              " -m comment --comment sbx-network -j NFQUEUE --queue-num " +
                              std::to_string(kQueueNumber) + "\nCOMMIT\n";
    for (const char *restore : {"iptables-restore", "ip6tables-restore"}) {
        run_tool_checked({find_tool(restore, "iptables"), "--noflush"},
                         "cannot send the packets of " + inside.path() + " to NFQUEUE", rules,
                         &inside);
    }
}

}  // namespace

PacketQueue::PacketQueue(const std::string &netns, const support::NetworkEntry &inside,
                         const PacketImpairment &impairment) {
    stop_fd_ = ::eventfd(0, EFD_CLOEXEC);
    if (stop_fd_ < 0) {
        throw Error(SBX_ERROR, "eventfd: " + errno_text(errno));
    }
    std::promise<void> ready;
    std::future<void> started = ready.get_future();
    const int stop_fd = stop_fd_;
    thread_ = std::thread([impairment, netns, &inside, stop_fd,
                           ready = std::move(ready)]() mutable {
        Worker worker(impairment);
        try {
            worker.open(inside);
        } catch (...) {
            ready.set_exception(std::current_exception());
            return;
        }
        ready.set_value();
        worker.serve(stop_fd);
        host::log(SBX_LOG_DEBUG, "NFQUEUE helper of " + netns + " stopped: " + worker.summary());
    });
    try {
        started.get();
        add_queue_rules(inside);
    } catch (...) {
        stop();
        throw;
    }
}

PacketQueue::~PacketQueue() {
    stop();
}

void PacketQueue::stop() noexcept {
    if (thread_.joinable()) {
        const std::uint64_t one = 1;
        (void)::write(stop_fd_, &one, sizeof one);
        thread_.join();
    }
    if (stop_fd_ >= 0) {
        ::close(stop_fd_);
        stop_fd_ = -1;
    }
}

}  // namespace sbx::network
