// Dispatch from a source to the reader of its kind.
#include "ranking/source_totals.hpp"

#include "ranking/database_totals.hpp"
#include "ranking/history_totals.hpp"

namespace sbx::ranking {

ScenarioRois scenario_rois(const Source &source) {
    return source.kind == SourceKind::metrics_db ? database_scenario_rois(source.path)
                                                 : history_scenario_rois(source.path);
}

SynergyTotals synergy_totals(const Source &source, const std::string &metric,
                             SynergySubjects subjects) {
    return source.kind == SourceKind::metrics_db
               ? database_synergy_totals(source.path, metric, subjects)
               : history_synergy_totals(source.path, metric);
}

}  // namespace sbx::ranking
