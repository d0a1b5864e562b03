#include "start_gate.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

namespace sbx::docker {

StartGate::Pass::~Pass() {
    if (gate_ != nullptr) {
        gate_->leave();
    }
}

std::optional<StartGate::Pass> StartGate::enter(std::size_t capacity,
                                                const std::function<bool()> &cancelled) {
    constexpr auto kCancelPoll = std::chrono::milliseconds(20);
    capacity = std::max<std::size_t>(capacity, 1);
    std::unique_lock lock(mutex_);
    while (in_flight_ >= capacity) {
        if (cancelled()) {
            return std::nullopt;
        }
        freed_.wait_for(lock, kCancelPoll);
    }
    ++in_flight_;
    return Pass(*this);
}

std::size_t StartGate::in_flight() const {
    const std::lock_guard lock(mutex_);
    return in_flight_;
}

void StartGate::leave() {
    {
        const std::lock_guard lock(mutex_);
        --in_flight_;
    }
    freed_.notify_all();  // waiters may hold different capacities
}

StartGate &StartGate::process_wide() {
    static StartGate gate;
    return gate;
}

std::size_t parallel_starts_capacity(std::uint64_t configured) {
    if (configured > 0) {
        return static_cast<std::size_t>(configured);
    }
    return std::max<std::size_t>(1, std::thread::hardware_concurrency());
}

}  // namespace sbx::docker
