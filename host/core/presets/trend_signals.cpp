#include "presets/trend_signals.hpp"

#include <algorithm>
#include <numeric>

namespace sbx::presets {
namespace {

constexpr size_t kRecent = 3;

double mean_of_last(const std::vector<double> &values, size_t count) {
    const size_t n = std::min(count, values.size());
    return std::accumulate(values.end() - static_cast<std::ptrdiff_t>(n), values.end(), 0.0) /
           static_cast<double>(n);
}

Trend sign_against(double value, double tolerance) {
    if (value > tolerance) {
        return Trend::rising;
    }
    return value < -tolerance ? Trend::falling : Trend::flat;
}

}  // namespace

TrendSignals trend_signals(const ScenarioSeries &series, double tolerance) {
    TrendSignals signals;
    signals.roi_samples = series.roi.size();
    if (!series.roi.empty()) {
        signals.roi_latest = series.roi.back();
    }
    if (series.roi.size() >= 2) {
        std::vector<double> changes;
        for (size_t i = 1; i < series.roi.size(); ++i) {
            changes.push_back(series.roi[i] - series.roi[i - 1]);
        }
        signals.roi = sign_against(mean_of_last(changes, kRecent), tolerance);
    }
    if (!series.synergy_roi.empty()) {
        signals.synergy_latest = series.synergy_roi.back();
        signals.synergy = sign_against(mean_of_last(series.synergy_roi, kRecent), tolerance);
    }
    if (!series.security_score.empty()) {
        const double score = mean_of_last(series.security_score, kRecent);
        signals.security = score < 0.4 ? Level::low : score >= 0.7 ? Level::high : Level::mid;
    }
    return signals;
}

const char *trend_name(Trend trend) {
    switch (trend) {
        case Trend::falling:
            return "falling";
        case Trend::flat:
            return "flat";
        case Trend::rising:
            return "rising";
        case Trend::unknown:
            break;
    }
    return "unknown";
}

const char *level_name(Level level) {
    switch (level) {
        case Level::low:
            return "low";
        case Level::mid:
            return "mid";
        case Level::high:
            return "high";
        case Level::unknown:
            break;
    }
    return "unknown";
}

std::string state_key(const TrendSignals &signals) {
    return std::string("roi=") + trend_name(signals.roi) +
           " synergy=" + trend_name(signals.synergy) + " security=" + level_name(signals.security);
}

}  // namespace sbx::presets
