#include "support/forecast_methods.hpp"

#include <sbx/plugin.hpp>

#include <algorithm>
#include <cmath>

#include <boost/math/distributions/students_t.hpp>

namespace sbx::support {
namespace {

// value ± half, the interval only from kMinPointsForInterval points on.
Forecast with_interval(double value, double half, size_t points) {
    Forecast forecast;
    forecast.value = value;
    if (points >= kMinPointsForInterval && std::isfinite(half)) {
        forecast.lower = value - half;
        forecast.upper = value + half;
    }
    return forecast;
}

// Root mean square of one-step errors (n − 1 of them for n points).
double error_sigma(double squared_error_sum, size_t points) {
    return points < 2 ? 0.0 : std::sqrt(squared_error_sum / static_cast<double>(points - 1));
}

}  // namespace

Forecast ema_forecast(const std::vector<double> &series, const EmaParameters &parameters) {
    if (series.empty()) {
        return {};
    }
    double ema = series.front();
    double squared_error_sum = 0;
    for (size_t i = 1; i < series.size(); ++i) {
        const double error = series[i] - ema;  // the forecast made before seeing x_i
        squared_error_sum += error * error;
        ema = parameters.alpha * series[i] + (1 - parameters.alpha) * ema;
    }
    return with_interval(ema, parameters.z * error_sigma(squared_error_sum, series.size()),
                         series.size());
}

Forecast linear_forecast(const std::vector<double> &series, const LinearParameters &parameters) {
    const size_t n = series.size();
    if (n == 0) {
        return {};
    }
    if (n == 1) {
        return with_interval(series.front(), 0, n);
    }
    const double count = static_cast<double>(n);
    const double x_mean = (count - 1) / 2;
    double y_mean = 0;
    for (const double y : series) {
        y_mean += y;
    }
    y_mean /= count;
    double sxx = 0;
    double sxy = 0;
    for (size_t i = 0; i < n; ++i) {
        const double dx = static_cast<double>(i) - x_mean;
        sxx += dx * dx;
        sxy += dx * (series[i] - y_mean);
    }
    const double slope = sxy / sxx;
    const double intercept = y_mean - slope * x_mean;
    const double next_x = count;
    const double value = intercept + slope * next_x;
    if (n < kMinPointsForInterval) {
        return with_interval(value, 0, n);
    }
    double residual_sum = 0;
    for (size_t i = 0; i < n; ++i) {
        const double residual = series[i] - (intercept + slope * static_cast<double>(i));
        residual_sum += residual * residual;
    }
    const double degrees = count - 2;
    const double s = std::sqrt(residual_sum / degrees);
    const double standard_error =
        s * std::sqrt(1 + 1 / count + (next_x - x_mean) * (next_x - x_mean) / sxx);
    const boost::math::students_t distribution(degrees);
    const double t = boost::math::quantile(distribution, 1 - (1 - parameters.confidence) / 2);
    return with_interval(value, t * standard_error, n);
}

Forecast holt_forecast(const std::vector<double> &series, const HoltParameters &parameters) {
    if (series.size() < 2) {
        return series.empty() ? Forecast{} : with_interval(series.front(), 0, series.size());
    }
    double level = series[0];
    double trend = series[1] - series[0];
    double squared_error_sum = 0;
    for (size_t i = 1; i < series.size(); ++i) {
        const double expected = level + parameters.phi * trend;  // made before seeing x_i
        const double error = series[i] - expected;
        squared_error_sum += error * error;
        const double previous_level = level;
        level = parameters.alpha * series[i] + (1 - parameters.alpha) * expected;
        trend = parameters.beta * (level - previous_level) +
                (1 - parameters.beta) * parameters.phi * trend;
    }
    return with_interval(level + parameters.phi * trend,
                         parameters.z * error_sigma(squared_error_sum, series.size()),
                         series.size());
}

Forecast clamped(Forecast forecast, double low, double high) {
    for (std::optional<double> *bound : {&forecast.value, &forecast.lower, &forecast.upper}) {
        if (*bound) {
            **bound = std::clamp(**bound, low, high);
        }
    }
    return forecast;
}

std::vector<double> request_series(const nlohmann::json &request) {
    const auto found = request.find("series");
    if (found == request.end()) {
        return {};
    }
    if (!found->is_array() ||
        !std::all_of(found->begin(), found->end(),
                     [](const nlohmann::json &point) { return point.is_number(); })) {
        throw sbx::Error(SBX_INVALID, "series must be an array of numbers");
    }
    return found->get<std::vector<double>>();
}

Forecast within_request_range(const nlohmann::json &request, Forecast forecast) {
    const auto range = request.find("range");
    if (range == request.end() || range->is_null()) {
        return forecast;
    }
    if (!range->is_array() || range->size() != 2 || !(*range)[0].is_number() ||
        !(*range)[1].is_number() || (*range)[0].get<double>() > (*range)[1].get<double>()) {
        throw sbx::Error(SBX_INVALID, "range must be [low, high] with low <= high");
    }
    return clamped(forecast, (*range)[0].get<double>(), (*range)[1].get<double>());
}

nlohmann::json forecast_answer(const std::string &method, size_t points, const Forecast &forecast) {
    const auto or_null = [](const std::optional<double> &value) {
        return value ? nlohmann::json(*value) : nlohmann::json();
    };
    return {{"method", method},
            {"points", points},
            {"value", or_null(forecast.value)},
            {"lower", or_null(forecast.lower)},
            {"upper", or_null(forecast.upper)},
            {"insufficient_data", !forecast.lower.has_value()}};
}

}  // namespace sbx::support
