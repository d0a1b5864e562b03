// Records a finished scenario matrix everywhere it belongs: the scenario_scores table, the
// JSON exports, the tracker and series in roi_history.json, and the tracker's flags file.
#pragma once

#include <filesystem>

#include "reports/roi_history.hpp"
#include "reports/scenario_summary.hpp"
#include "scoring/tracker.hpp"
#include "store/store.hpp"

namespace sbx::reports {

// The impact table: IMPACT_SEVERITY_CONFIG, else config/impact_severity.yaml when present
// in the working directory, else the built-in table.
scoring::ImpactSeverity configured_impact_severity();

// `settings` and the impact table are read before a matrix starts (so a typo in their
// variables is reported before any run), and passed in here.
void record_scenario_run(store::Store &store, const std::filesystem::path &data_dir,
                         const ScenarioRun &run, const scoring::TrackerSettings &settings);

// The tracker kept in `history`, with the converged modules of `flags_file` only: the
// flags file is what the user sees and edits, so deleting a module from it (or the file)
// brings the module back.
scoring::Tracker tracker_from_history(const RoiHistory &history,
                                      const scoring::TrackerSettings &settings,
                                      const std::filesystem::path &flags_file);

// Appends one stage/scenario entry to the history's series (ROI, delta, RAROI, metrics).
void append_series(RoiHistory &history, const std::string &scenario, double roi, double delta,
                   double raroi, const std::map<std::string, double> &metrics);

}  // namespace sbx::reports
