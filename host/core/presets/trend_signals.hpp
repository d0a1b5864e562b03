// What the recent history of one scenario says, reduced to the few signs adapt-presets
// decides on (docs/semantics.md "Adapting presets"): is the ROI rising, flat or falling,
// does running the workflows together help or hurt, is the code that ran well hardened.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace sbx::presets {

enum class Trend { unknown, falling, flat, rising };
enum class Level { unknown, low, mid, high };

struct TrendSignals {
    Trend roi = Trend::unknown;
    Trend synergy = Trend::unknown;  // falling: negative synergy, rising: positive
    Level security = Level::unknown;
    size_t roi_samples = 0;
    // The newest values, for the learned policy's reward.
    std::optional<double> roi_latest, synergy_latest;
};

// The series of one scenario, oldest first.
struct ScenarioSeries {
    std::vector<double> roi;
    std::vector<double> synergy_roi;     // synergy_roi values, where simulations recorded any
    std::vector<double> security_score;  // in [0, 1]
};

// The ROI trend is the mean of the last three ROI changes against `tolerance` (two values at
// least); the synergy sign the mean of the last three synergy values against it; security
// the mean of the last three scores: below 0.4 low, 0.7 or more high.
TrendSignals trend_signals(const ScenarioSeries &series, double tolerance);

const char *trend_name(Trend trend);  // unknown, falling, flat, rising
const char *level_name(Level level);  // unknown, low, mid, high

// The learned policy's state: "roi=flat synergy=unknown security=high".
std::string state_key(const TrendSignals &signals);

}  // namespace sbx::presets
