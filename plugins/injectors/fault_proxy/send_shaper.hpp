// When, and how much, one direction of a proxied connection may send: a bandwidth pace (a
// token bucket with no saved-up burst) and slices with a pause between them. The poll loop
// asks it before each send and tells it what went out; it never sleeps, it names the time
// the loop should wake at instead.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>

namespace sbx::fault_proxy {

class SendShaper {
  public:
    using Clock = std::chrono::steady_clock;

    // `bytes_per_second` 0: no pace; `slice_bytes` 0: no slices.
    SendShaper(double bytes_per_second, std::size_t slice_bytes,
               std::chrono::milliseconds slice_delay);

    // The earliest time of the next send (in the past when it may go now).
    [[nodiscard]] Clock::time_point ready_at() const;
    // The most the next send may carry: the rest of the current slice, and about 10 ms of
    // the bandwidth (at least kMinPacedBytes). SIZE_MAX when nothing limits it.
    [[nodiscard]] std::size_t allowance() const;
    // `bytes` went out at `now`.
    void sent(std::size_t bytes, Clock::time_point now);

    // A paced send carries no less than this, so that a slow rate is not a flood of tiny
    // segments (the pace still holds over time: the next send waits longer).
    static constexpr std::size_t kMinPacedBytes = 512;

  private:
    double bytes_per_second_;
    std::size_t paced_chunk_ = SIZE_MAX;
    std::size_t slice_bytes_;
    Clock::duration slice_delay_;
    Clock::time_point paced_until_{};  // the bytes sent so far have "used" the rate till then
    Clock::time_point slice_at_{};     // the current slice may start
    std::size_t slice_left_;           // bytes left in the current slice
};

}  // namespace sbx::fault_proxy
