// The matrix's queue of runs: a deque under one lock, and a wait for cells still open.
#include "engine/run_queue.hpp"

namespace sbx::engine {

void RunQueue::push(const PlannedRun &run) {
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        runs_.push_back(run);
    }
    changed_.notify_one();
}

void RunQueue::cell_closed() {
    bool last = false;
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        last = open_cells_ > 0 && --open_cells_ == 0;
    }
    if (last) {
        changed_.notify_all();
    }
}

std::optional<PlannedRun> RunQueue::take() {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [this] { return stopped_ || !runs_.empty() || open_cells_ == 0; });
    if (stopped_ || runs_.empty()) {
        return std::nullopt;
    }
    const PlannedRun run = runs_.front();
    runs_.pop_front();
    return run;
}

void RunQueue::stop() {
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        stopped_ = true;
    }
    changed_.notify_all();
}

}  // namespace sbx::engine
