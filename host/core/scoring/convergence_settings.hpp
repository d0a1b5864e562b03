// The knobs of synergy convergence and the entropy plateau (docs/semantics.md "Convergence")
// and how the environment sets them.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <functional>
#include <optional>

namespace sbx::scoring {

struct ConvergenceSettings {
    // Synergy: the moving-average window (the series needs two of them), the confidences
    // of the stationarity (ADF) and variance (Levene) tests, and how many consecutive
    // checks must pass.
    size_t synergy_window = 5;
    double stationarity_confidence = 0.95;
    double variance_confidence = 0.95;
    int synergy_cycles = 3;
    // A fixed synergy threshold (--synergy-threshold, SYNERGY_THRESHOLD); none: derived from
    // history: the weighted mean of the loop's recent synergy forecast errors, or without
    // two of them the weighted spread of the series.
    std::optional<double> synergy_threshold;
    // The derived threshold's window (--synergy-threshold-window, SYNERGY_THRESHOLD_WINDOW; 0:
    // synergy_window) and the weight of its newest value (--synergy-threshold-weight,
    // SYNERGY_THRESHOLD_WEIGHT, in (0, 1]; none: 2 / (window + 1)); older values weigh
    // (1 − weight)^age.
    size_t synergy_threshold_window = 0;
    std::optional<double> synergy_threshold_weight;
    // SYNERGY_CONFIDENCE: also, Welch's t test must not find the last window's mean apart
    // from the one before at this confidence; none: no such test.
    std::optional<double> synergy_confidence;
    // Entropy plateau: |entropy change| at most this (none: derived from history) for this
    // many consecutive iterations.
    std::optional<double> entropy_plateau_threshold;
    int entropy_plateau_consecutive = 3;
};

// The defaults with SYNERGY_MA_WINDOW, SYNERGY_STATIONARITY_CONFIDENCE,
// SYNERGY_VARIANCE_CONFIDENCE, SYNERGY_CYCLES, SYNERGY_THRESHOLD, SYNERGY_THRESHOLD_WINDOW,
// SYNERGY_THRESHOLD_WEIGHT, SYNERGY_CONFIDENCE, ENTROPY_PLATEAU_THRESHOLD and
// ENTROPY_PLATEAU_CONSECUTIVE applied; empty variables count as unset. Throws InputError
// naming the variable for a value that is not a number or is out of range.
ConvergenceSettings convergence_settings_from_environment(
    const std::function<const char *(const char *)> &getenv = ::getenv);

}  // namespace sbx::scoring
