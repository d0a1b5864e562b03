// Forecasts of recorded series (docs/semantics.md "Forecasts"): the shown predictor and the
// compared ones (settings' `predictors:`) each forecast the series' next point; every
// forecast is stored, and the ones made one point earlier are paired with the point that
// came, so `reliability` can score any predictor, built-in or third-party, the same way.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/plugin_set.hpp"
#include "store/forecast_records.hpp"
#include "store/store.hpp"

namespace sbx::engine {

// One series to forecast.
struct SeriesQuestion {
    std::string subject;  // "<metric>:<what>", e.g. "roi:demo-kv:normal:on"
    std::string metric;   // what the series measures: roi, wall_s, synergy_roi, ...
    std::vector<store::SeriesPoint> points;  // oldest first, ending with the newest
    // Where the series cannot go: a forecast outside is a predictor defect (ROI: [0, 1]).
    std::optional<std::pair<double, double>> range;
};

// Thread-safe as far as its parts are: the store locks, and each predictor instance
// serializes its calls.
class Forecaster {
  public:
    Forecaster(PluginSet &plugins, store::Store &store, int64_t session_id)
        : plugins_(plugins), store_(store), session_id_(session_id) {}

    // Asks every predictor (each answer checked against the contract), records the
    // forecasts after pairing the earlier ones with the newest point, and returns the shown
    // predictor's answer. Nothing is asked about an empty series ({} is returned).
    nlohmann::json forecast(const SeriesQuestion &question);

  private:
    PluginSet &plugins_;
    store::Store &store_;
    int64_t session_id_;
};

// The subject of a cell's series of `metric`: "<metric>:<workflow>:<preset>:<flag>".
std::string cell_series_subject(const std::string &metric, const std::string &workflow,
                                const std::string &preset, const std::string &flag);

}  // namespace sbx::engine
