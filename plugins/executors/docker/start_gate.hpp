// Container starts are let through a few at a time. An engine handed dozens of creates and
// starts at once (the copies of a concurrency spike, many workers) works through them all
// together, so each one takes as long as all of them and runs fail on deadlines: the
// sandbox's fault, never the program's. Waiting here instead keeps each start as fast as
// the engine can make one, and the deadline measures the engine, not the queue.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>

namespace sbx::docker {

class StartGate {
  public:
    // A place in the gate, given back when it goes.
    class Pass {
      public:
        explicit Pass(StartGate &gate) : gate_(&gate) {}
        Pass(Pass &&other) noexcept : gate_(other.gate_) { other.gate_ = nullptr; }
        Pass(const Pass &) = delete;
        Pass &operator=(const Pass &) = delete;
        Pass &operator=(Pass &&) = delete;
        ~Pass();

      private:
        StartGate *gate_;
    };

    // Waits its turn (first come, first served) until fewer than `capacity` passes are out,
    // then takes one. Returns nothing when `cancelled()` turns true while waiting (polled
    // every few milliseconds).
    std::optional<Pass> enter(std::size_t capacity, const std::function<bool()> &cancelled);
    // Passes out now.
    [[nodiscard]] std::size_t in_flight() const;
    // Callers waiting for a turn now.
    [[nodiscard]] std::size_t waiting() const;

    // The gate every instance of the executor in this process shares: the engine is one.
    static StartGate &process_wide();

  private:
    void leave();

    mutable std::mutex mutex_;
    std::condition_variable freed_;
    std::size_t in_flight_ = 0;
    std::uint64_t next_ticket_ = 0;
    std::deque<std::uint64_t> waiting_;  // tickets in arrival order
};

// The `parallel_starts` setting as a capacity: 0 means the machine's hardware threads.
std::size_t parallel_starts_capacity(std::uint64_t configured);

}  // namespace sbx::docker
