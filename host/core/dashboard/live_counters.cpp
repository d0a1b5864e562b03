#include "dashboard/live_counters.hpp"

#include <atomic>
#include <chrono>
#include <mutex>

namespace sbx::dashboard {
namespace {

struct LiveState {
    std::mutex mutex;
    LiveSnapshot snapshot;
    std::chrono::steady_clock::time_point start;
};

LiveState &state() {
    static LiveState instance;
    return instance;
}

std::atomic<bool> enabled{false};

}  // namespace

void enable_live() {
    enabled.store(true);
}

bool live_enabled() {
    return enabled.load();
}

void live_planned(uint64_t runs) {
    std::lock_guard<std::mutex> guard(state().mutex);
    if (!state().snapshot.active) {
        state().snapshot.active = true;
        state().start = std::chrono::steady_clock::now();
    }
    state().snapshot.planned += runs;
}

void live_started(const std::string &current) {
    std::lock_guard<std::mutex> guard(state().mutex);
    state().snapshot.current = current;
}

void live_finished(bool passed) {
    std::lock_guard<std::mutex> guard(state().mutex);
    ++state().snapshot.done;
    state().snapshot.failed += passed ? 0 : 1;
}

LiveSnapshot live_snapshot() {
    std::lock_guard<std::mutex> guard(state().mutex);
    LiveSnapshot copy = state().snapshot;
    if (copy.active) {
        copy.elapsed_s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - state().start).count();
    }
    return copy;
}

}  // namespace sbx::dashboard
