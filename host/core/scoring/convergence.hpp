// When further cycles stop paying off, beyond the ROI tracker (docs/semantics.md
// "Convergence"): a synergy series that has settled (its moving average stopped moving, it is
// stationary by the ADF test and its spread steady by Levene's test), and an entropy of
// outcomes that has stopped changing (nothing new is being learned). Every check is a pure
// function of the series so far, so a resumed loop decides exactly as an uninterrupted one.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "scoring/convergence_settings.hpp"
#include "scoring/equal_variance.hpp"
#include "scoring/unit_root.hpp"

namespace sbx::scoring {

// The exponentially weighted standard deviation of the last `window` values (weight
// (1 − a)^age, a = 2 / (window + 1), newest weighted most): how much the series moves now.
// 0 for fewer than two values. The threshold a check derives from history when none is given.
// `weight` replaces a: the weight of the newest value.
double adaptive_threshold(const std::vector<double> &values, size_t window,
                          std::optional<double> weight = std::nullopt);

// The weighted mean of the last `window` values, the newest weighing 1 and each older one
// (1 − weight) times the next (weight none: 2 / (window + 1)); 0 for none.
double weighted_recent_mean(const std::vector<double> &values, size_t window,
                            std::optional<double> weight = std::nullopt);

// The Shannon entropy, in bits, of a cell's outcomes: its passing runs and each distinct
// failure reason with its count. 0 when every run ended the same way.
double outcome_entropy(int passed, const std::map<std::string, int> &failures);

struct SynergyCheck {
    bool stable = false;
    std::string reason;                         // why not, or "stable"
    double recent_mean = 0, previous_mean = 0;  // of the last window and the one before
    double threshold = 0;
    bool threshold_given = false;  // from --synergy-threshold or SYNERGY_THRESHOLD
    // Where a derived threshold came from: "forecast error" (the loop's synergy forecasts
    // against what came) or "spread" (the series' own); "" when given.
    std::string threshold_basis;
    std::optional<double> mean_shift_p;         // Welch's t test, with SYNERGY_CONFIDENCE
    bool constant = false;                      // the last two windows hold one value
    std::optional<UnitRootTest> stationarity;   // on the last two windows
    std::optional<EqualVarianceTest> variance;  // last window against the one before
};

// One check of the series as it is now; it needs two windows of points. `forecast_errors`,
// parallel to `series`: |forecast − value| of each point that had a forecast, NaN for one
// that had none (or empty: no forecasts).
SynergyCheck check_synergy(const std::vector<double> &series, const ConvergenceSettings &settings,
                           const std::vector<double> &forecast_errors = {});

// True when check_synergy passed on the series as it was after each of its last
// `synergy_cycles` points.
bool synergy_converged(const std::vector<double> &series, const ConvergenceSettings &settings,
                       const std::vector<double> &forecast_errors = {});

struct PlateauCheck {
    bool within = false;  // this change is at most the threshold
    double change = 0;    // |last − previous|
    double threshold = 0;
    bool threshold_given = false;  // from ENTROPY_PLATEAU_THRESHOLD, not derived
};

// The newest change of an entropy series (it needs two points) against the plateau
// threshold: given, else adaptive_threshold of the earlier changes.
std::optional<PlateauCheck> check_entropy_plateau(const std::vector<double> &series,
                                                  const ConvergenceSettings &settings);

// True when each of the last `entropy_plateau_consecutive` changes was within its threshold.
bool entropy_plateaued(const std::vector<double> &series, const ConvergenceSettings &settings);

}  // namespace sbx::scoring
