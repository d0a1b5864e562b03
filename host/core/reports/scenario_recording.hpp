// Records a finished scenario matrix everywhere it belongs: the scenario_scores table, the
// JSON exports, the tracker and series in roi_history.json, and the tracker's flags file.
#pragma once

#include <filesystem>
#include <vector>

#include "config/settings.hpp"
#include "engine/cell_work.hpp"
#include "plugins/registry.hpp"
#include "presets/preset.hpp"
#include "reports/roi_history.hpp"
#include "reports/scenario_summary.hpp"
#include "scoring/raroi.hpp"
#include "scoring/tracker.hpp"
#include "store/store.hpp"

namespace sbx::reports {

// The impact table: IMPACT_SEVERITY_CONFIG, else config/impact_severity.yaml when present
// in the working directory, else the built-in table.
scoring::ImpactSeverity configured_impact_severity();

// What scores and records a scenario matrix of `workflow`: the impact table and the
// tracker's settings, read before any run so that a typo in their variables (or an unknown
// `impact:` type, an InputError) costs nothing.
struct ScenarioScorers {
    scoring::RaroiContext raroi;
    scoring::TrackerSettings tracker;
};
ScenarioScorers scenario_scorers(const config::Workflow &workflow);

// A scenario matrix's session, seed and --repetitions, and the runs to spend shrinking
// each failure its polyglots found (0: none).
struct ScenarioMatrixRun {
    int64_t session = 0;
    int64_t seed = 0;
    int repetitions = 1;
    int shrink_runs = 0;
};

// The finished matrix of `workflow` under `scenarios`: its cells paired and scored, the
// failures its polyglots found shrunk, and recorded (record_scenario_run).
ScenarioRun score_and_record_scenarios(const config::Settings &settings,
                                       plugins::Registry &registry, store::Store &store,
                                       const config::Workflow &workflow,
                                       const std::vector<presets::Preset> &scenarios,
                                       const std::vector<engine::CellSummary> &summaries,
                                       const ScenarioMatrixRun &matrix,
                                       const ScenarioScorers &scorers);

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
