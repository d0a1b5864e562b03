// What the autonomous loop concludes after each iteration (docs/semantics.md
// "Convergence"), from its records alone: which modules have converged by ROI, whether the
// synergy has settled, whether entropy has plateaued; each decision also as a line of
// threshold_log.jsonl.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "autonomous/loop_state.hpp"
#include "scoring/convergence_settings.hpp"
#include "scoring/tracker_settings.hpp"

namespace sbx::autonomous {

// Where a threshold came from: the command line, the environment, or the history.
struct ThresholdSources {
    std::string roi = "history";      // tolerance adapted to the forecasts' error
    std::string synergy = "history";  // the synergy's recent spread
    std::string entropy = "history";  // the entropy changes' recent spread
};

// Every knob of the loop's decisions, fixed when the loop starts and kept in its state, so a
// --recover in another environment decides as the loop began to.
struct LoopThresholds {
    scoring::TrackerSettings tracker;
    scoring::ConvergenceSettings convergence;
    ThresholdSources sources;

    [[nodiscard]] nlohmann::json to_json() const;
    // Throws InputError (through the state's reader) for a damaged entry.
    static LoopThresholds from_json(const nlohmann::json &kept);
};

struct LoopDecisions {
    std::vector<std::string> modules;            // in scope, by name
    std::vector<std::string> converged_modules;  // by ROI (the tracker)
    std::vector<std::string> plateaued_modules;  // entropy plateau or ceiling
    bool has_synergy = false;
    bool synergy_converged = false;
    std::string synergy_reason;       // the latest check's
    double roi_tolerance = 0;         // after adaptation
    std::vector<nlohmann::json> log;  // one threshold_log.jsonl entry per decision
    // "" while the loop should go on; else why it stops (converged or plateaued).
    std::string stop_reason;
    std::vector<std::string> pending;  // what has not converged yet, one phrase each
};

// The ROI tolerance: the given one, else the configured one divided by the reliability of
// the shown predictor's forecasts of each module's ROI over the iterations.
double loop_roi_tolerance(const AutonomousState &state, double tolerance, bool given);

// |forecast − actual| of each synergy point, parallel to synergy_series: the forecast the
// iteration before made of it; NaN for a point with none.
std::vector<double> synergy_forecast_errors(const AutonomousState &state);

LoopDecisions decide(const AutonomousState &state, const std::vector<std::string> &modules,
                     const scoring::TrackerSettings &tracker_settings,
                     const scoring::ConvergenceSettings &convergence,
                     const ThresholdSources &sources);

}  // namespace sbx::autonomous
