// The progress line of a long command on a terminal: runs done of planned, elapsed time and
// ETA, failures so far, the run in flight. Redrawn on every run and once a second (a slow
// run still shows time passing); erased when the command ends. Shown only when stderr is a
// terminal and the command wants it (neither --json nor --quiet). It also feeds the live
// counters the dashboard and the exporter of this process show.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "engine/run_observer.hpp"
#include "plugins/call_watch.hpp"

namespace sbx::dashboard {

// What the line says at one moment.
struct ProgressState {
    std::size_t total = 0;  // runs planned
    std::size_t done = 0;
    std::size_t failed = 0;
    std::string current;  // the run in flight, "workflow / scenario (flag)"
    std::chrono::seconds elapsed{0};
    // The plugin call in flight the longest, named when it is over a second old.
    std::optional<plugins::WaitedCall> waited;
};

// "runs 3/10 (30%)  0:12  ETA 0:28  1 failed  wf / preset (on)": the line's text, the
// failures in red when `colors`. `state.total` must not be 0.
std::string progress_text(const ProgressState &state, bool colors);

class ProgressLine : public engine::RunObserver {
  public:
    // Inactive (observes, draws nothing) unless `wanted` and stderr is a terminal.
    explicit ProgressLine(bool wanted);
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

}  // namespace sbx::dashboard
