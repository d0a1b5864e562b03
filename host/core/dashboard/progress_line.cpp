// Drawing the progress line and composing its text.
#include "dashboard/progress_line.hpp"

#include <cstdio>

#include "dashboard/live_counters.hpp"
#include "logging/status_line.hpp"
#include "reports/markup_escape.hpp"

namespace sbx::dashboard {

std::string clock_text(std::chrono::seconds duration) {
    const long long total = duration.count() < 0 ? 0 : duration.count();
    char text[32];
    if (total >= 3600) {
        std::snprintf(text, sizeof(text), "%lld:%02lld:%02lld", total / 3600, total / 60 % 60,
                      total % 60);
    } else {
        std::snprintf(text, sizeof(text), "%lld:%02lld", total / 60, total % 60);
    }
    return text;
}

ProgressLine::ProgressLine(bool wanted)
    : active_(logging::stderr_is_terminal() && wanted),
      feeding_(live_enabled()),
      colors_(logging::stderr_colors()),
      start_(std::chrono::steady_clock::now()) {
    if (active_) {
        ticker_ = std::thread([this] { tick(); });
    }
}

ProgressLine::~ProgressLine() {
    stop();
}

void ProgressLine::stop() {
    if (!ticker_.joinable()) {
        return;
    }
    {
        std::lock_guard<std::mutex> guard(mutex_);
        stopping_ = true;
        active_ = false;  // late observer calls draw nothing
    }
    wake_.notify_all();
    ticker_.join();
    logging::clear_status();
}

void ProgressLine::planned(std::size_t runs) {
    if (feeding_) {
        live_planned(runs);
    }
    std::lock_guard<std::mutex> guard(mutex_);
    total_ += runs;
    draw_locked(true);
}

void ProgressLine::started(const std::string &workflow, const std::string &scenario,
                           const std::string &flag) {
    std::lock_guard<std::mutex> guard(mutex_);
    // Names are the user's: no escape sequence of theirs reaches the terminal.
    current_ = reports::sanitize_text(workflow + " / " + scenario + " (" + flag + ")");
    if (feeding_) {
        live_started(current_);
    }
    draw_locked();
}

void ProgressLine::finished(bool passed) {
    if (feeding_) {
        live_finished(passed);
    }
    std::lock_guard<std::mutex> guard(mutex_);
    ++done_;
    failed_ += passed ? 0 : 1;
    draw_locked(done_ == total_);  // the last one always shows
}

void ProgressLine::tick() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!wake_.wait_for(lock, std::chrono::seconds(1), [this] { return stopping_; })) {
        draw_locked(true);
    }
}

std::string progress_text(const ProgressState &state, bool colors) {
    std::string line = "runs " + std::to_string(state.done) + "/" + std::to_string(state.total) +
                       " (" + std::to_string(state.done * 100 / state.total) + "%)  " +
                       clock_text(state.elapsed);
    if (state.done > 0 && state.done < state.total) {
        const auto eta = state.elapsed * static_cast<long>(state.total - state.done) /
                         static_cast<long>(state.done);
        line += "  ETA " + clock_text(eta);
    }
    if (state.failed > 0) {
        const std::string failures = std::to_string(state.failed) + " failed";
        line += "  " + (colors ? "\033[31m" + failures + "\033[0m" : failures);
    }
    if (!state.current.empty() && state.done < state.total) {
        line += "  " + state.current;
    }
    // Rationale: over a second is no plugin's normal pace; say who the host waits on.
    if (state.waited && state.waited->waited >= std::chrono::seconds(1)) {
        line += "  waiting on plugin " + reports::sanitize_text(state.waited->plugin_id) + " (" +
                state.waited->call + ", " +
                clock_text(std::chrono::duration_cast<std::chrono::seconds>(state.waited->waited)) +
                ")";
    }
    return line;
}

void ProgressLine::draw_locked(bool now) {
    const auto time = std::chrono::steady_clock::now();
    if (!active_ || total_ == 0 || (!now && time - drawn_ < std::chrono::milliseconds(100))) {
        return;
    }
    drawn_ = time;
    const auto elapsed = std::chrono::duration_cast<std::chrono::seconds>(time - start_);
    logging::show_status(progress_text(
        {total_, done_, failed_, current_, elapsed, plugins::longest_call_in_flight()}, colors_));
}

}  // namespace sbx::dashboard
