// The knobs of the ROI tracker (docs/semantics.md "Tracker") and how the environment sets them.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <functional>
#include <optional>

namespace sbx::scoring {

struct TrackerSettings {
    // How many recent cycles the moving statistics (σ, means) look back over; at least 1.
    size_t window = 5;
    // The base of the diminishing-returns threshold, in ROI units; at least 0.
    double tolerance = 0.01;
    // Consecutive cycles within the threshold before a module converges; at least 1.
    int roi_cycles = 3;
    // ROI gained per unit of entropy below which a module is complete; 0 turns it off.
    double entropy_threshold = 0;
    // ROI_CONFIDENCE: a cycle counts toward convergence only when the equivalence t test
    // (TOST) puts the mean of the last window deltas within the threshold at this
    // confidence; none: the mean alone decides.
    std::optional<double> roi_confidence;
};

// The defaults with SANDBOX_ROI_TOLERANCE (or, when unset, ROI_THRESHOLD), ROI_CYCLES,
// ROI_CONFIDENCE and ENTROPY_THRESHOLD applied; empty variables count as unset. Throws InputError
// naming the variable for a value that is not a number or is out of range.
TrackerSettings tracker_settings_from_environment(
    const std::function<const char *(const char *)> &getenv = ::getenv);

}  // namespace sbx::scoring
