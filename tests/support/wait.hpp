// Waiting for an event instead of sleeping a fixed time before an assertion. A fixed sleep
// is either too short on a loaded machine (parallel tests, other builds) or wasted time on a
// quiet one; polling the condition ends as soon as it holds and tolerates a slow machine.
#pragma once

#include <chrono>
#include <thread>

namespace sbx::test {

// Far beyond what any awaited event takes on a quiet machine: a deadline only bounds a
// failure, it is never the expected outcome.
inline constexpr std::chrono::milliseconds kGenerousDeadline{30000};

// Polls `condition` every `poll` until it holds (true) or `deadline` has passed (the
// condition's last value, so an event that came at the very end still counts).
template <typename Condition>
bool wait_until(Condition &&condition, std::chrono::milliseconds deadline = kGenerousDeadline,
                std::chrono::milliseconds poll = std::chrono::milliseconds(10)) {
    const auto until = std::chrono::steady_clock::now() + deadline;
    while (!condition()) {
        if (std::chrono::steady_clock::now() >= until) {
            return condition();
        }
        std::this_thread::sleep_for(poll);
    }
    return true;
}

// For rules that are themselves about elapsed time (an idle timeout, "inspected after 2 s
// idle"): waits until `rule` has passed since `since`, the moment the rule's clock started
// (taken right after the event that starts it), plus `margin` for the plugin's own reading
// of the clock. The wait is derived from the rule, not guessed.
inline void wait_past(std::chrono::steady_clock::time_point since,
                      std::chrono::steady_clock::duration rule,
                      std::chrono::steady_clock::duration margin = std::chrono::milliseconds(50)) {
    std::this_thread::sleep_until(since + rule + margin);
}

}  // namespace sbx::test
