// The fallback for kernels without netem: every packet a namespace sends goes through an
// NFQUEUE to a helper thread of the plugin, which drops it, holds it for delay ± jitter,
// or sends it twice, from a seeded random schedule.
#pragma once

#include <cstdint>
#include <string>
#include <thread>

namespace sbx::support {
class NetworkEntry;
}

namespace sbx::network {

struct PacketImpairment {
    // Added round-trip time: packets leaving by the uplink are held for all of it, packets
    // on loopback (which pass twice per round trip) for half.
    double delay_ms = 0;
    double jitter_ms = 0;
    double loss = 0;         // per packet
    double duplication = 0;  // per packet
    std::uint64_t seed = 0;  // same seed, same packets in the same order: same fates
};

// The queue number inside each namespace. Queues belong to a network namespace, so every
// namespace can use the same one.
constexpr std::uint16_t kQueueNumber = 0;
// The mark on the helper's duplicate packets, which the queue rule lets through.
constexpr std::uint32_t kDuplicateMark = 0x5b0d;

class PacketQueue {
  public:
    // Starts the helper thread for the namespace `inside` (named `netns` in messages), binds
    // the queue there, then adds the iptables and ip6tables rules sending the namespace's
    // outgoing packets to it. `inside` must outlive the queue. Throws sbx::Error once the
    // thread is stopped again when any step fails.
    PacketQueue(const std::string &netns, const support::NetworkEntry &inside,
                const PacketImpairment &impairment);
    // Stops the thread; packets still held are dropped with the queue.
    ~PacketQueue();
    PacketQueue(const PacketQueue &) = delete;
    PacketQueue &operator=(const PacketQueue &) = delete;

  private:
    void stop() noexcept;

    int stop_fd_ = -1;  // eventfd the thread polls
    std::thread thread_;
};

}  // namespace sbx::network
