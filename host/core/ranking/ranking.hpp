// The rankings over finished runs (rank-scenarios, rank-synergy, rank-scenario-synergy):
// per-scenario totals summed across every source, best first.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ranking/source.hpp"
#include "ranking/source_totals.hpp"

namespace sbx::ranking {

struct ScenarioRank {
    std::string workflow;  // "" when not recorded (roi_history.json) or ranked across workflows
    std::string scenario;
    double roi = 0;     // cumulative: Σ over every recorded on-cell in every source
    int64_t cells = 0;  // how many on-cells that Σ is over
    [[nodiscard]] double mean_roi() const {
        return cells > 0 ? roi / static_cast<double>(cells) : 0.0;
    }
    // The last one recorded: from the last source (in argument order) that has one, so
    // pass older runs first.
    std::optional<double> security_score;
};

enum class WorkflowGrouping {
    each_workflow,  // a ranking per workflow: one program's scenarios against each other
    all_workflows   // one ranking; a scenario's totals summed over every workflow
};

// Grouped by workflow (by name), each group sorted by cumulative ROI descending, ties by name.
std::vector<ScenarioRank> rank_scenarios(const std::vector<Source> &sources,
                                         WorkflowGrouping grouping);

struct SynergyRank {
    std::string scenario;
    double value = 0;  // Σ of the metric over every source
};

struct SynergyRanking {
    std::string metric;             // the full name, e.g. "synergy_roi"
    std::vector<SynergyRank> rows;  // value descending, ties by name
};

// "roi" and "synergy_roi" both name synergy_roi. Throws InputError for an empty name or
// one with characters a metric name never has.
std::string synergy_metric_name(const std::string &metric);

// Every synergy record of the metric (sections and workflow sets). Throws InputError when
// the sources record other synergy metrics but not this one (a typo, most likely), naming
// those recorded; when they record no synergy at all the ranking is empty.
SynergyRanking rank_synergy(const std::vector<Source> &sources, const std::string &metric);
// Only the synergy recorded for workflow sets (metrics.db rows whose subject is not
// "sections"). roi_history.json does not keep the subject: there it equals rank_synergy.
SynergyRanking rank_scenario_synergy(const std::vector<Source> &sources, const std::string &metric);

}  // namespace sbx::ranking
