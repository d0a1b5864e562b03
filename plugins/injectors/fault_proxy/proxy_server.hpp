// One fault proxy: a listening socket and a thread running a poll loop that forwards each
// accepted connection to the upstream, holding back each request by the latency, resetting
// or hanging the connections its schedule names, altering bytes on the way back, pacing
// each direction to a bandwidth and slicing what comes back. Stopping it (the destructor)
// wakes the loop, resets every connection in flight and closes the listener; it never
// waits for a peer.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "fault_schedule.hpp"
#include "proxied_connection.hpp"
#include "proxy_counters.hpp"
#include "proxy_records.hpp"
#include "socket_address.hpp"

namespace sbx::fault_proxy {

struct ProxySettings {
    std::string name;                  // the upstream's name, for messages and seeds
    SocketAddress listen;              // port 0: the kernel chooses
    std::string netns;                 // "" = the host's network namespace
    SocketAddress target;              // the real upstream
    std::uint64_t latency_ms = 0;      // per request burst, client -> upstream
    double corrupt_rate = 0;           // per byte, upstream -> client
    double bandwidth_bits_per_s = 0;   // each direction of each connection; 0: unlimited
    std::uint64_t slice_bytes = 0;     // upstream -> client sends of at most this; 0: whole
    std::uint64_t slice_delay_ms = 0;  // between two slices
    std::uint64_t seed = 0;            // of the byte corruption (the schedule has its own)
    std::shared_ptr<ConnectionSchedule> schedule;
    std::filesystem::path record_folder;  // "" = no record
};

class ProxyServer {
  public:
    // Listens and starts the loop; throws sbx::Error when it cannot listen.
    explicit ProxyServer(ProxySettings settings);
    ~ProxyServer();
    ProxyServer(const ProxyServer &) = delete;
    ProxyServer &operator=(const ProxyServer &) = delete;
    ProxyServer(ProxyServer &&) = delete;
    ProxyServer &operator=(ProxyServer &&) = delete;

    // Where the target connects: host:port, with the port the kernel chose for port 0.
    [[nodiscard]] const std::string &address() const { return address_; }
    // The next connection accepted meets `fate` whatever the schedule draws for it (it still
    // takes its place in the schedule): reset at its first request, hung, or its first reply
    // byte corrupted. A run's first repetitions make their faults this way, where they cannot
    // be missed. [any-thread]
    enum class Fate : int { none = 0, reset, hang, corrupt };
    void force_next(Fate fate) { forced_.store(static_cast<int>(fate)); }
    [[nodiscard]] nlohmann::json counters() const;

  private:
    void loop() noexcept;
    void accept_new(std::vector<std::unique_ptr<ProxiedConnection>> &connections);
    // Starts the connection to the real upstream; false (the client reset) when it cannot.
    [[nodiscard]] bool connect_upstream(ProxiedConnection &c) const;

    ProxySettings settings_;
    UniqueFd listener_;
    UniqueFd wake_;  // eventfd: written once to stop the loop
    std::string address_;
    ProxyRecord record_;
    ConnectionShape shape_;
    ProxyCounters counters_;
    std::atomic<int> forced_{0};  // a Fate for the next connection
    std::thread thread_;          // last: started once everything it uses exists
};

}  // namespace sbx::fault_proxy
