// Waiting for the target: one poll() loop over its pidfd and its output pipes that enforces
// the wall-clock deadline and the host's cancellation, and never lets output block the target.
#pragma once

#include <chrono>
#include <optional>

#include "output_capture.hpp"
#include "spawn.hpp"

namespace sbx::local {

struct Supervised {
    ExitInfo exit;
    bool timed_out = false;  // we killed it at the deadline
    bool cancelled = false;  // we killed it because the host asked to stop
};

// Runs until the target has ended and been reaped, and its pipes are drained. Kills it at
// `deadline` (when set) or when the host cancels.
Supervised supervise(RunningTarget &target, OutputCapture &out, OutputCapture &err,
                     std::optional<std::chrono::steady_clock::time_point> deadline);

}  // namespace sbx::local
