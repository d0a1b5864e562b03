#include "scoring/convergence.hpp"

#include <algorithm>
#include <cmath>

#include <cstdio>

#include "scoring/mean_tests.hpp"
#include "scoring/statistics.hpp"

namespace sbx::scoring {
namespace {

// Four significant digits: enough to read a reason, short enough for a log line.
std::string text(double value) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.4g", value);
    return buffer;
}

}  // namespace

namespace {

// The decay of the weights: each older value weighs this times the next.
double decay_of(size_t window, std::optional<double> weight) {
    return 1 - weight.value_or(2.0 / (static_cast<double>(window) + 1));
}

}  // namespace

double weighted_recent_mean(const std::vector<double> &values, size_t window,
                            std::optional<double> weight) {
    const auto recent = last_values(values, window);
    const double decay = decay_of(window, weight);
    double factor = 1;
    double weights = 0;
    double weighted_sum = 0;
    for (size_t i = recent.size(); i-- > 0;) {  // newest first, weight 1
        weighted_sum += factor * recent[i];
        weights += factor;
        factor *= decay;
    }
    return weights > 0 ? weighted_sum / weights : 0;
}

double adaptive_threshold(const std::vector<double> &values, size_t window,
                          std::optional<double> weight) {
    const auto recent = last_values(values, window);
    if (recent.size() < 2) {
        return 0;
    }
    const double decay = decay_of(window, weight);
    const double center = weighted_recent_mean(recent, window, weight);
    double factor = 1;
    double weights = 0;
    double squares = 0;
    for (size_t i = recent.size(); i-- > 0;) {
        squares += factor * (recent[i] - center) * (recent[i] - center);
        weights += factor;
        factor *= decay;
    }
    return std::sqrt(squares / weights);
}

double outcome_entropy(int passed, const std::map<std::string, int> &failures) {
    std::vector<double> counts;
    if (passed > 0) {
        counts.push_back(passed);
    }
    for (const auto &[reason, count] : failures) {
        if (count > 0) {
            counts.push_back(count);
        }
    }
    const double total = sum(counts);
    double entropy = 0;
    for (const double count : counts) {
        const double p = count / total;
        entropy -= p * std::log2(p);
    }
    return entropy == 0 ? 0 : entropy;  // never -0
}

SynergyCheck check_synergy(const std::vector<double> &series, const ConvergenceSettings &settings,
                           const std::vector<double> &forecast_errors) {
    SynergyCheck check;
    const size_t window = settings.synergy_window;
    // The threshold first: the log shows it (and its basis) while the points are too few.
    check.threshold_given = settings.synergy_threshold.has_value();
    const size_t threshold_window =
        settings.synergy_threshold_window > 0 ? settings.synergy_threshold_window : window;
    std::vector<double> errors;  // the forecast errors known, in order
    for (size_t i = 0; i < forecast_errors.size() && i < series.size(); ++i) {
        if (!std::isnan(forecast_errors[i])) {
            errors.push_back(forecast_errors[i]);
        }
    }
    if (check.threshold_given) {
        check.threshold = *settings.synergy_threshold;
    } else if (errors.size() >= 2) {
        // How far the loop's own forecasts miss: a move within that is no move it can see.
        check.threshold =
            weighted_recent_mean(errors, threshold_window, settings.synergy_threshold_weight);
        check.threshold_basis = "forecast error";
    } else {
        check.threshold =
            adaptive_threshold(series, threshold_window, settings.synergy_threshold_weight);
        check.threshold_basis = "spread";
    }
    if (series.size() < 2 * window) {
        check.reason = "needs " + std::to_string(2 * window) + " points (SYNERGY_MA_WINDOW " +
                       std::to_string(window) + " twice), has " + std::to_string(series.size());
        return check;
    }
    const std::vector<double> both(series.end() - static_cast<long>(2 * window), series.end());
    const std::vector<double> previous(both.begin(), both.begin() + static_cast<long>(window));
    const std::vector<double> recent(both.begin() + static_cast<long>(window), both.end());
    check.recent_mean = mean(recent);
    check.previous_mean = mean(previous);
    const double moved = std::fabs(check.recent_mean - check.previous_mean);
    if (moved > check.threshold) {
        check.reason =
            "its moving average moved by " + text(moved) + ", above " + text(check.threshold);
        return check;
    }
    // A move within the threshold can still be a shift the spread makes certain.
    if (settings.synergy_confidence) {
        check.mean_shift_p = welch_t_test(previous, recent);
        const double alpha = 1 - *settings.synergy_confidence;
        if (check.mean_shift_p && *check.mean_shift_p < alpha) {
            check.reason = "its mean shifted (Welch's t test p " + text(*check.mean_shift_p) +
                           " < " + text(alpha) + ")";
            return check;
        }
    }
    // Exactly equal values, not a zero spread: a mean of equal doubles can miss them by an
    // ulp, and the ADF regression of a constant cannot be fitted.
    check.constant =
        std::all_of(both.begin(), both.end(), [&](double value) { return value == both.front(); });
    if (!check.constant) {
        check.stationarity = augmented_dickey_fuller(both);
        const double alpha = 1 - settings.stationarity_confidence;
        if (!check.stationarity || check.stationarity->p_value >= alpha) {
            check.reason = check.stationarity
                               ? "not stationary (ADF p " + text(check.stationarity->p_value) +
                                     " >= " + text(alpha) + ")"
                               : "too few points for the ADF regression";
            return check;
        }
    }
    check.variance = levene_test({previous, recent});
    const double variance_alpha = 1 - settings.variance_confidence;
    if (check.variance && check.variance->p_value < variance_alpha) {
        check.reason = "its spread changed (Levene p " + text(check.variance->p_value) + " < " +
                       text(variance_alpha) + ")";
        return check;
    }
    check.stable = true;
    check.reason = "stable";
    return check;
}

bool synergy_converged(const std::vector<double> &series, const ConvergenceSettings &settings,
                       const std::vector<double> &forecast_errors) {
    const auto cycles = static_cast<size_t>(settings.synergy_cycles);
    if (series.size() < cycles) {
        return false;
    }
    for (size_t end = series.size() - cycles + 1; end <= series.size(); ++end) {
        const std::vector<double> errors(
            forecast_errors.begin(),
            forecast_errors.begin() + static_cast<long>(std::min(end, forecast_errors.size())));
        if (!check_synergy({series.begin(), series.begin() + static_cast<long>(end)}, settings,
                           errors)
                 .stable) {
            return false;
        }
    }
    return true;
}

std::optional<PlateauCheck> check_entropy_plateau(const std::vector<double> &series,
                                                  const ConvergenceSettings &settings) {
    if (series.size() < 2) {
        return std::nullopt;
    }
    std::vector<double> earlier_changes;
    for (size_t i = 1; i + 1 < series.size(); ++i) {
        earlier_changes.push_back(std::fabs(series[i] - series[i - 1]));
    }
    PlateauCheck check;
    check.change = std::fabs(series.back() - series[series.size() - 2]);
    check.threshold_given = settings.entropy_plateau_threshold.has_value();
    check.threshold = settings.entropy_plateau_threshold.value_or(
        adaptive_threshold(earlier_changes, settings.synergy_window));
    check.within = check.change <= check.threshold;
    return check;
}

bool entropy_plateaued(const std::vector<double> &series, const ConvergenceSettings &settings) {
    const auto consecutive = static_cast<size_t>(settings.entropy_plateau_consecutive);
    if (series.size() < consecutive + 1) {
        return false;
    }
    for (size_t end = series.size() - consecutive + 1; end <= series.size(); ++end) {
        const auto check = check_entropy_plateau(
            {series.begin(), series.begin() + static_cast<long>(end)}, settings);
        if (!check || !check->within) {
            return false;
        }
    }
    return true;
}

}  // namespace sbx::scoring
