// What a fault proxy has done since it started, for reports and tests. Written by the
// proxy's loop thread, read by any thread.
#pragma once

#include <atomic>
#include <cstdint>

namespace sbx::fault_proxy {

struct ProxyCounters {
    std::atomic<std::uint64_t> connections{0};  // accepted
    std::atomic<std::uint64_t> resets{0};       // reset by the schedule
    std::atomic<std::uint64_t> timeouts{0};     // hung by the schedule
    std::atomic<std::uint64_t> corrupted_bytes{0};
    std::atomic<std::uint64_t> bytes_to_upstream{0};
    std::atomic<std::uint64_t> bytes_to_client{0};
};

}  // namespace sbx::fault_proxy
