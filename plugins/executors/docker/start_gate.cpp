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
    // First come, first served: under a steady stream of starts no one waits forever.
    const std::uint64_t ticket = next_ticket_++;
    waiting_.push_back(ticket);
    while (waiting_.front() != ticket || in_flight_ >= capacity) {
        if (cancelled()) {
            waiting_.erase(std::find(waiting_.begin(), waiting_.end(), ticket));
            freed_.notify_all();  // the one behind may be first now
            return std::nullopt;
        }
        freed_.wait_for(lock, kCancelPoll);
    }
    waiting_.pop_front();
    ++in_flight_;
    freed_.notify_all();  // the next in line may fit too
    return Pass(*this);
}

std::size_t StartGate::in_flight() const {
    const std::lock_guard lock(mutex_);
    return in_flight_;
}

std::size_t StartGate::waiting() const {
    const std::lock_guard lock(mutex_);
    return waiting_.size();
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
