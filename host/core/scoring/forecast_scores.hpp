// How good each predictor's forecasts were (docs/semantics.md "Forecasts"): per subject, the
// rolling MAE of its paired forecasts, how often the actual value fell inside the interval,
// and the reliability score; and the ROI tolerance adapted to the shown predictor's error.
#pragma once

#include <cstddef>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "scoring/tracker_settings.hpp"
#include "store/forecast_records.hpp"

namespace sbx::scoring {

struct PredictorScore {
    std::string predictor;
    size_t pairs = 0;        // paired forecasts scored (the last `window`, or all)
    double mae = 0;          // mean |forecast − actual| over them
    size_t intervals = 0;    // of them, those with an interval
    size_t covered = 0;      // of those, the ones whose interval held the actual value
    double reliability = 1;  // 1 / (1 + EMA₀.₃ |forecast − actual|), over every pair
    // For a choosing predictor (`auto`): how often it used each method, over the scored pairs.
    std::map<std::string, size_t> chosen;
    // covered / intervals, none without intervals.
    [[nodiscard]] std::optional<double> coverage() const;
};

struct SubjectScores {
    std::string subject;
    std::vector<PredictorScore> predictors;  // lowest MAE first, ties by name
};

// Scores `forecasts` (in the order they were made) per subject and predictor, over each
// one's last `window` pairs (all when 0); subjects in name order.
std::vector<SubjectScores> score_forecasts(const std::vector<store::ScoredForecast> &forecasts,
                                           size_t window);

// [{"subject", "predictors": [{"predictor", "pairs", "mae", "intervals", "covered",
// "coverage" (null without intervals), "reliability", "chosen"}]}]: `show-reliability --json`.
nlohmann::json to_json(const std::vector<SubjectScores> &scores);

// The ROI tolerance the tracker uses: `base` / reliability of the shown predictor's ROI
// forecasts (subjects "roi:..."), so noisy forecasts widen what counts as no change and
// reliable ones keep it at `base`. `base` when nothing is paired yet.
double adapted_tolerance(double base, const std::vector<store::ScoredForecast> &forecasts);

// `settings` with its tolerance adapted to the ROI forecasts recorded in `store`, the change
// logged (debug) when there is one.
TrackerSettings with_adapted_tolerance(TrackerSettings settings, store::Store &store);

}  // namespace sbx::scoring
