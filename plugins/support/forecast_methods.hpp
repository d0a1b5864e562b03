// The built-in forecasting methods (docs/semantics.md "Forecasts"): each gives the next value
// of a series, oldest first, and an interval once the series is long enough to estimate one.
// The `ema`, `linear` and `holt` predictors each answer with one of them; `auto` replays all
// three over the series and answers with the one whose recent one-step errors are smallest.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace sbx::support {

// Below this many points an interval would be invented, not estimated.
constexpr size_t kMinPointsForInterval = 4;

struct Forecast {
    std::optional<double> value;         // none for an empty series
    std::optional<double> lower, upper;  // none below kMinPointsForInterval points
};

struct EmaParameters {
    double alpha = 0.3;  // smoothing factor in (0, 1]
    double z = 1.96;     // interval half-width in standard errors of the one-step errors
};

struct LinearParameters {
    double confidence = 0.95;  // of the prediction interval, in (0, 1)
};

// Damped-trend Holt (Gardner and McKenzie): level and trend smoothed, the trend damped by
// phi per step ahead.
struct HoltParameters {
    double alpha = 0.5;  // level smoothing in (0, 1]
    double beta = 0.3;   // trend smoothing in [0, 1]
    double phi = 0.9;    // trend damping in (0, 1]
    double z = 1.96;
};

// Exponential moving average; the interval from the one-step errors of the EMA itself.
Forecast ema_forecast(const std::vector<double> &series, const EmaParameters &parameters);
// Least squares line over the point index; the prediction interval from Student's t with
// n − 2 degrees of freedom. One point forecasts itself.
Forecast linear_forecast(const std::vector<double> &series, const LinearParameters &parameters);
// Damped-trend double exponential smoothing; the interval from its one-step errors.
Forecast holt_forecast(const std::vector<double> &series, const HoltParameters &parameters);

// Mean |forecast from series[0, i) − series[i]| over the last `window` points i ≥ 1 of the
// series (every point when window is 0): the rolling MAE the method would have had, had it
// forecast each of those points. None when no point can be scored.
template <typename Method>
std::optional<double> replayed_mae(const std::vector<double> &series, size_t window,
                                   Method &&method) {
    const size_t first = window == 0 || series.size() <= window + 1 ? 1 : series.size() - window;
    double sum = 0;
    size_t count = 0;
    for (size_t i = first; i < series.size(); ++i) {
        const std::vector<double> prefix(series.begin(), series.begin() + static_cast<long>(i));
        const Forecast forecast = method(prefix);
        if (forecast.value) {
            sum += *forecast.value > series[i] ? *forecast.value - series[i]
                                               : series[i] - *forecast.value;
            ++count;
        }
    }
    return count == 0 ? std::nullopt : std::optional<double>(sum / static_cast<double>(count));
}

// Clamps the forecast into [low, high] (a series that cannot leave a range, such as ROI).
Forecast clamped(Forecast forecast, double low, double high);

// The request's series, and its `range` ([low, high], where a series cannot go beyond)
// applied to the forecast; the predictor answer's fields for `forecast` under `method`.
std::vector<double> request_series(const nlohmann::json &request);
Forecast within_request_range(const nlohmann::json &request, Forecast forecast);
nlohmann::json forecast_answer(const std::string &method, size_t points, const Forecast &forecast);

// A one-method predictor's whole `predict`: the request's series through `method`, kept in
// the request's range, answered under `name`.
template <typename Method>
std::string answer_with(const std::string &request_json, const std::string &name, Method &&method) {
    const nlohmann::json request = nlohmann::json::parse(request_json);
    const auto series = request_series(request);
    return forecast_answer(name, series.size(), within_request_range(request, method(series)))
        .dump();
}

}  // namespace sbx::support
