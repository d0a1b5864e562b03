// Ranking totals from roi_history.json.
#include "ranking/history_totals.hpp"

#include <numeric>

#include "reports/roi_history.hpp"

namespace sbx::ranking {
namespace {

double sum(const std::vector<double> &values) {
    return std::accumulate(values.begin(), values.end(), 0.0);
}

}  // namespace

ScenarioRois history_scenario_rois(const std::filesystem::path &path) {
    ScenarioRois rois;
    for (const auto &[name, series] : reports::load_roi_history(path).scenarios) {
        auto &out = rois[{"", name}];
        out.roi = sum(series.roi);
        out.cells = static_cast<int64_t>(series.roi.size());
        const auto security = series.metrics.find("security_score");
        if (security != series.metrics.end() && !security->second.empty()) {
            out.security_score = security->second.back();
        }
    }
    return rois;
}

SynergyTotals history_synergy_totals(const std::filesystem::path &path, const std::string &metric) {
    SynergyTotals totals;
    for (const auto &[name, series] : reports::load_roi_history(path).scenarios) {
        for (const auto &[metric_name, values] : series.metrics) {
            if (metric_name.rfind("synergy_", 0) == 0 && !values.empty()) {
                totals.metrics.insert(metric_name);
            }
        }
        const auto found = series.metrics.find(metric);
        if (found != series.metrics.end() && !found->second.empty()) {
            totals.by_scenario[name] = sum(found->second);
        }
    }
    return totals;
}

}  // namespace sbx::ranking
