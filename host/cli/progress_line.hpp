// The progress line of a long command on a terminal: runs done of planned, elapsed time and
// ETA, failures so far, the run in flight. Redrawn on every run and once a second (a slow
// run still shows time passing); erased when the command ends. Shown only when stderr is a
// terminal and the command was given neither --json nor --quiet. It also feeds the live
// counters the dashboard and the exporter of this process show.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "cli_context.hpp"
#include "engine/run_observer.hpp"

namespace sbx::cli {

class ProgressLine final : public engine::RunObserver {
  public:
    // Inactive (observes, draws nothing) unless `options` and the terminal allow it.
    explicit ProgressLine(const GlobalOptions &options);
    ~ProgressLine() override;
    ProgressLine(const ProgressLine &) = delete;
    ProgressLine &operator=(const ProgressLine &) = delete;

    // Erases the line and stops redrawing, before the command prints its results (also
    // done by the destructor; a second call does nothing).
    void stop();

    // The observer to hand a matrix: this one, or nullptr when nothing is drawn.
    engine::RunObserver *observer() { return active_ || feeding_ ? this : nullptr; }

    void planned(std::size_t runs) override;
    void started(const std::string &workflow, const std::string &scenario,
                 const std::string &flag) override;
    void finished(bool passed) override;

  private:
    // Redraws, at most every 100 ms unless `now` (a terminal redrawn per run of a fast
    // matrix would spend more time drawing than the runs take).
    void draw_locked(bool now = false);
    void tick();

    bool active_ = false;   // drawing the line
    bool feeding_ = false;  // feeding the live counters of this process's servers
    bool colors_ = false;
    std::chrono::steady_clock::time_point start_;
    std::chrono::steady_clock::time_point drawn_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    std::size_t total_ = 0;
    std::size_t done_ = 0;
    std::size_t failed_ = 0;
    std::string current_;
    std::thread ticker_;
};

// "1:05", "12:00:03": minutes and seconds, hours when there are any.
std::string clock_text(std::chrono::seconds duration);

}  // namespace sbx::cli
