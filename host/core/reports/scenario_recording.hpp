// Records a finished scenario matrix everywhere it belongs: the scenario_scores table, the
// JSON exports, the tracker and series in roi_history.json, and the tracker's flags file.
#pragma once

#include <filesystem>

#include "reports/roi_history.hpp"
#include "reports/scenario_summary.hpp"
#include "store/store.hpp"

namespace sbx::reports {

// The impact table: IMPACT_SEVERITY_CONFIG, else config/impact_severity.yaml when present
// in the working directory, else the built-in table.
scoring::ImpactSeverity configured_impact_severity();

void record_scenario_run(store::Store &store, const std::filesystem::path &data_dir,
                         const ScenarioRun &run);

// Appends one stage/scenario entry to the history's series (ROI, delta, RAROI, metrics).
void append_series(RoiHistory &history, const std::string &scenario, double roi, double delta,
                   double raroi, const std::map<std::string, double> &metrics);

}  // namespace sbx::reports
