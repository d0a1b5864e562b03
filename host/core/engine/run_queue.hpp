// The runs a matrix's workers take, in the order they were queued. More may be queued
// while workers run: a cell that learns from coverage queues each round when the round
// before it ended (engine/cell_rounds.hpp), so a worker with nothing to take waits while
// such a cell is still open.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>

#include "engine/remote_runs.hpp"

namespace sbx::engine {

class RunQueue {
  public:
    // `open_cells`: cells that may still queue runs; each says cell_closed() once.
    explicit RunQueue(std::size_t open_cells) : open_cells_(open_cells) {}

    void push(const PlannedRun &run);
    // The cell will queue no more runs.
    void cell_closed();
    // The next run; waits while none is queued and a cell is open. nullopt once none is
    // queued and every cell is closed, or after stop().
    std::optional<PlannedRun> take();
    // No run is handed out any more (the first error): waiting workers return.
    void stop();

  private:
    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<PlannedRun> runs_;
    std::size_t open_cells_;
    bool stopped_ = false;
};

}  // namespace sbx::engine
