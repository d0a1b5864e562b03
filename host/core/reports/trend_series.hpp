// A recorded series drawn as a chart: each point a finished cell's value, and the shown
// predictor's last forecast of the next one with its interval (dashed, banded).
#pragma once

#include <cstdint>
#include <string>

#include "reports/svg_chart.hpp"
#include "store/sqlite_handle.hpp"

namespace sbx::reports {

// The on-cell ROI of `workflow` under `scenario` over the sessions up to `up_to_session`
// (the newest `limit` cells), as a measured series and a forecast series.
std::vector<ChartSeries> roi_trend(store::Connection &db, const std::string &workflow,
                                   const std::string &scenario, int64_t up_to_session,
                                   int limit = 50);

// The same for any forecast subject (`roi:W:P:F`, `METRIC:W:P:F`, `synergy_...`): its
// paired forecasts' actual values as the measured series, and the newest forecast.
std::vector<ChartSeries> subject_trend(store::Connection &db, const std::string &subject,
                                       int limit = 50);

}  // namespace sbx::reports
