// Forecasts and what then happened: the series a forecast is asked about, the pairing of
// each stored forecast with the value that came next, and the scored pairs `reliability`
// and the adaptive tolerance read.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "store/store.hpp"

namespace sbx::store {

// One point of a recorded series.
struct SeriesPoint {
    double value = 0;
    std::string at;  // when it was measured (ISO 8601 UTC)
};

// Every numeric cell metric of (workflow, preset name, flag), each its own series over the
// cells that recorded it, oldest first.
std::map<std::string, std::vector<SeriesPoint>> cell_metric_series(Store &store,
                                                                   const std::string &workflow,
                                                                   const std::string &preset_name,
                                                                   const std::string &flag);

// Every synergy value of `subject` (a workflow set or "sections") under `scenario`, by name,
// each a series over the sessions that recorded it, oldest first.
std::map<std::string, std::vector<SeriesPoint>> synergy_series(Store &store,
                                                               const std::string &subject,
                                                               const std::string &scenario);

// One transaction: pairs every unpaired forecast of `subject` made from p < n points (n =
// series.size()), by any predictor, with series[p], the point that came next (normally the
// forecasts from n − 1 points with the newest point; older ones a failed call left unpaired
// meet theirs too); then stores `forecasts` (made from the n points), replacing an unpaired
// forecast of the same predictor from the same n points, so asking twice (a resumed loop)
// keeps one.
void record_forecasts(Store &store, const std::string &subject, const std::vector<double> &series,
                      const std::vector<PredictionRecord> &forecasts);

// A stored forecast and the value that then came.
struct ScoredForecast {
    std::string subject;
    std::string predictor;  // the plugin id
    std::string chosen;     // the method `auto` used, "" for other predictors
    double value = 0;
    std::optional<double> lower, upper;
    double actual = 0;
    int points = 0;
    bool shown = true;  // made by the shown predictor, not a compared one
};

// The paired forecasts whose subject starts with `subject_prefix` ("" for all), in the order
// they were made.
std::vector<ScoredForecast> scored_forecasts(Store &store, const std::string &subject_prefix);
// The same of the metrics.db at `database`; {} when there is none yet (a reader never
// creates one).
std::vector<ScoredForecast> scored_forecasts(const std::filesystem::path &database,
                                             const std::string &subject_prefix);

}  // namespace sbx::store
