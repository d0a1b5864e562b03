// Merging per-source totals into rankings.
#include "ranking/ranking.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "util/errors.hpp"

namespace sbx::ranking {
namespace {

template <class Row, class Key>
void sort_best_first(std::vector<Row> &rows, Key key) {
    std::sort(rows.begin(), rows.end(), [&](const Row &a, const Row &b) {
        if (key(a) != key(b)) {
            return key(a) > key(b);
        }
        return a.scenario < b.scenario;
    });
}

SynergyRanking rank_synergy_of(const std::vector<Source> &sources, const std::string &metric,
                               SynergySubjects subjects) {
    SynergyRanking ranking;
    ranking.metric = synergy_metric_name(metric);
    std::map<std::string, double> totals;
    std::set<std::string> recorded;
    for (const auto &source : sources) {
        const auto found = synergy_totals(source, ranking.metric, subjects);
        for (const auto &[scenario, value] : found.by_scenario) {
            totals[scenario] += value;
        }
        recorded.insert(found.metrics.begin(), found.metrics.end());
    }
    if (totals.empty() && !recorded.empty()) {
        std::string names;
        for (const auto &name : recorded) {
            names += (names.empty() ? "" : ", ") + name;
        }
        throw InputError("no RUN records " + ranking.metric + "; recorded synergy metrics: " +
                         names + " (pass --metric with one of them, with or without synergy_)");
    }
    for (const auto &[scenario, value] : totals) {
        ranking.rows.push_back({scenario, value});
    }
    sort_best_first(ranking.rows, [](const SynergyRank &row) { return row.value; });
    return ranking;
}

}  // namespace

std::vector<ScenarioRank> rank_scenarios(const std::vector<Source> &sources,
                                         WorkflowGrouping grouping) {
    ScenarioRois totals;
    for (const auto &source : sources) {
        for (const auto &[key, found] : scenario_rois(source)) {
            auto &total = totals[grouping == WorkflowGrouping::all_workflows
                                     ? WorkflowScenario{"", key.scenario}
                                     : key];
            total.roi += found.roi;
            total.cells += found.cells;
            if (found.security_score) {
                total.security_score = found.security_score;
            }
        }
    }
    std::vector<ScenarioRank> rows;
    rows.reserve(totals.size());
    for (const auto &[key, total] : totals) {
        rows.push_back({key.workflow, key.scenario, total.roi, total.cells, total.security_score});
    }
    std::stable_sort(rows.begin(), rows.end(), [](const ScenarioRank &a, const ScenarioRank &b) {
        if (a.workflow != b.workflow) {
            return a.workflow < b.workflow;
        }
        return a.roi != b.roi ? a.roi > b.roi : a.scenario < b.scenario;
    });
    return rows;
}

std::string synergy_metric_name(const std::string &metric) {
    std::string name = metric.rfind("synergy_", 0) == 0 ? metric : "synergy_" + metric;
    const bool valid_characters = std::all_of(metric.begin(), metric.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-' || c == '.';
    });
    if (metric.empty() || name == "synergy_" || !valid_characters) {
        throw InputError("--metric '" + metric +
                         "' is not a metric name; write e.g. --metric roi or --metric "
                         "security_score (synergy_ is added when left out)");
    }
    return name;
}

SynergyRanking rank_synergy(const std::vector<Source> &sources, const std::string &metric) {
    return rank_synergy_of(sources, metric, SynergySubjects::all);
}

SynergyRanking rank_scenario_synergy(const std::vector<Source> &sources,
                                     const std::string &metric) {
    return rank_synergy_of(sources, metric, SynergySubjects::workflows);
}

}  // namespace sbx::ranking
