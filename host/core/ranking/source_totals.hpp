// What one source contributes to a ranking, per scenario: summed by the source's own
// reader (roi_history.json in memory, metrics.db in SQL) and merged by ranking.hpp.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>

#include "ranking/source.hpp"

namespace sbx::ranking {

// A scenario of one workflow: the same preset name in two workflows is two programs under the
// same faults. "" for a roi_history.json, which records no workflow.
struct WorkflowScenario {
    std::string workflow;
    std::string scenario;
    bool operator<(const WorkflowScenario &other) const {
        return workflow != other.workflow ? workflow < other.workflow : scenario < other.scenario;
    }
};

struct ScenarioRoi {
    double roi = 0;                        // Σ of the ROI of every on-cell recorded
    int64_t cells = 0;                     // how many on-cells (history entries) were summed
    std::optional<double> security_score;  // the newest security_score recorded, if any
};
using ScenarioRois = std::map<WorkflowScenario, ScenarioRoi>;

// Which synergy records count. roi_history.json does not say which subject a synergy
// value was measured on, so there both choices read the same series.
enum class SynergySubjects {
    all,       // sections and workflow sets alike
    workflows  // only workflow sets (metrics.db synergy rows whose subject is not "sections")
};

struct SynergyTotals {
    std::map<std::string, double> by_scenario;  // Σ of the metric asked for
    std::set<std::string> metrics;              // every synergy_* metric found, for messages
};

ScenarioRois scenario_rois(const Source &source);
// `metric` is the full name, e.g. "synergy_roi".
SynergyTotals synergy_totals(const Source &source, const std::string &metric,
                             SynergySubjects subjects);

}  // namespace sbx::ranking
