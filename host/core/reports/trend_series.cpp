#include "reports/trend_series.hpp"

#include <algorithm>

namespace sbx::reports {
namespace {

// The newest shown forecast of `subject` made within the sessions up to `up_to_session`,
// drawn from the last measured point to the forecast point, with its interval.
void add_forecast(store::Connection &db, const std::string &subject, int64_t up_to_session,
                  std::vector<ChartSeries> &series) {
    if (series.empty() || series.front().points.empty()) {
        return;
    }
    store::Statement query(db.get(),
                           "SELECT value, lower, upper, method FROM predictions WHERE subject = ? "
                           "AND shown = 1 AND session_id <= ? AND value IS NOT NULL ORDER BY id "
                           "DESC LIMIT 1");
    query.bind(1, subject).bind(2, up_to_session);
    if (!query.step()) {
        return;
    }
    const ChartPoint last = series.front().points.back();
    const double value = query.column_double(0);
    ChartSeries forecast;
    forecast.name = "forecast (" + query.column_text(3) + ")";
    forecast.dashed = true;
    forecast.points = {last, {last.x + 1, value}};
    if (!query.column_is_null(1) && !query.column_is_null(2)) {
        forecast.lower = {last, {last.x + 1, query.column_double(1)}};
        forecast.upper = {last, {last.x + 1, query.column_double(2)}};
    }
    series.push_back(std::move(forecast));
}

}  // namespace

std::vector<ChartSeries> roi_trend(store::Connection &db, const std::string &workflow,
                                   const std::string &scenario, int64_t up_to_session, int limit) {
    store::Statement query(db.get(),
                           "SELECT roi FROM (SELECT c.id, c.roi FROM cells c JOIN presets p ON "
                           "p.id = c.preset_id WHERE c.workflow = ? AND p.name = ? AND c.flag = "
                           "'on' AND c.session_id <= ? ORDER BY c.id DESC LIMIT ?) ORDER BY id");
    query.bind(1, workflow).bind(2, scenario).bind(3, up_to_session).bind(4, int64_t{limit});
    ChartSeries measured;
    measured.name = "ROI " + scenario;
    for (double x = 1; query.step(); x += 1) {
        measured.points.push_back({x, query.column_double(0)});
    }
    std::vector<ChartSeries> series{std::move(measured)};
    add_forecast(db, "roi:" + workflow + ":" + scenario + ":on", up_to_session, series);
    return series;
}

std::vector<ChartSeries> subject_trend(store::Connection &db, const std::string &subject,
                                       int limit) {
    // One actual per number of points: the compared predictors pair the same value.
    store::Statement query(db.get(),
                           "SELECT points, actual FROM (SELECT points, MAX(actual) AS actual FROM "
                           "predictions WHERE subject = ? AND actual IS NOT NULL GROUP BY points "
                           "ORDER BY points DESC LIMIT ?) ORDER BY points");
    query.bind(1, subject).bind(2, int64_t{limit});
    ChartSeries measured;
    measured.name = subject;
    while (query.step()) {
        measured.points.push_back(
            {static_cast<double>(query.column_int(0) + 1), query.column_double(1)});
    }
    std::vector<ChartSeries> series{std::move(measured)};
    add_forecast(db, subject, INT64_MAX, series);
    return series;
}

}  // namespace sbx::reports
