#include "reports/foresight_trends.hpp"

#include <map>

#include "reports/foresight_history.hpp"
#include "scoring/statistics.hpp"
#include "util/errors.hpp"
#include "util/input_file.hpp"
#include "util/json_input.hpp"

namespace sbx::reports {

using nlohmann::json;

namespace {

// Least squares slope of `values` over their index; 0 for fewer than two.
double slope(const std::vector<double> &values) {
    if (values.size() < 2) {
        return 0;
    }
    const double n = static_cast<double>(values.size());
    const double x_mean = (n - 1) / 2;
    const double y_mean = scoring::mean(values);
    double sxx = 0;
    double sxy = 0;
    for (size_t i = 0; i < values.size(); ++i) {
        const double dx = static_cast<double>(i) - x_mean;
        sxx += dx * dx;
        sxy += dx * (values[i] - y_mean);
    }
    return sxy / sxx;
}

constexpr double kFlat = 0.01;  // per cycle

}  // namespace

std::vector<json> load_foresight_cycles(const std::filesystem::path &path) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
        return {};
    }
    const std::string fix = "move the file away to start a new history";
    const json document = parse_json_input(read_input_file(path, "the foresight history", fix),
                                           path.string(), "the foresight history", fix);
    if (!document.is_object() || document.value("format", json()) != kForesightFormat ||
        !document.value("cycles", json()).is_array()) {
        throw InputError(path.string() + ": not a sandbox-runner foresight history; " + fix);
    }
    return document["cycles"].get<std::vector<json>>();
}

std::vector<ForesightTrend> foresight_trends(const std::vector<json> &cycles) {
    std::map<std::string, std::pair<std::vector<double>, std::vector<double>>> series;
    for (const auto &cycle : cycles) {
        if (!cycle.is_object()) {
            continue;  // an entry this host cannot read says nothing about a trend
        }
        const auto workflow = cycle.value("workflow", json());
        const auto stages = cycle.value("stages", json());
        if (!workflow.is_string() || !stages.is_array()) {
            continue;
        }
        std::vector<double> resilience;
        for (const auto &stage : stages) {
            const auto value = stage.is_string()
                                   ? cycle.value(stage.get<std::string>() + "_resilience", json())
                                   : json();
            if (value.is_number()) {
                resilience.push_back(value.get<double>());
            }
        }
        auto &[resilience_series, stability_series] = series[workflow.get<std::string>()];
        resilience_series.push_back(scoring::mean(resilience));
        const auto stability = cycle.value("stability", json());
        stability_series.push_back(stability.is_number() ? stability.get<double>() : 1.0);
    }
    std::vector<ForesightTrend> trends;
    for (const auto &[workflow, both] : series) {
        const auto &[resilience, stability] = both;
        ForesightTrend trend;
        trend.workflow = workflow;
        trend.cycles = static_cast<int>(resilience.size());
        trend.resilience_slope = slope(resilience);
        trend.latest_stability = stability.back();
        trend.mean_stability = scoring::mean(stability);
        trend.direction = trend.resilience_slope > kFlat    ? "improving"
                          : trend.resilience_slope < -kFlat ? "degrading"
                                                            : "flat";
        trend.stable = trend.latest_stability >= trend.mean_stability - 1e-12;
        trends.push_back(trend);
    }
    return trends;
}

}  // namespace sbx::reports
