// The result of run-scenarios as data: the summary object (`--json`, and
// scorecard_<workflow>.json), scenario_deltas.json, and the lines people read.
#pragma once

#include <map>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/scenario_matrix.hpp"
#include "scoring/scenario_scores.hpp"

namespace sbx::reports {

struct ScenarioRun {
    std::string workflow;
    std::string baseline;  // "" = counterfactual mode
    int64_t session = 0;
    int64_t seed = 0;
    int repetitions = 1;
    int robustness_repetitions = 1;  // the runs of each robustness scenario's cells
    std::vector<engine::ScenarioCells> cells;
    scoring::ScenarioReport report;
    // Scenario name -> what its first polyglot failure shrank to: {category, slot, inputs,
    // size, runs, minimal, run} (run: the minimal failing run's id, for `replay`).
    std::map<std::string, nlohmann::json> shrunk;
    // What starts the replay lines (reports::command_prefix): the settings and data dir the
    // matrix ran with, so that a printed line works from anywhere.
    std::string commands = "sandbox-runner";
};

// The scoring inputs of the paired cells.
std::vector<scoring::ScenarioInput> scoring_inputs(const std::vector<engine::ScenarioCells> &cells);

// {"workflow", "mode", "baseline", "session", "seed", "repetitions", "status",
//  "worst_scenario", "order": [...], "scenarios": {name: {roi, roi_off, roi_delta, raroi,
//  raroi_off, raroi_delta, target_delta, metrics_delta, passed, reasons, tip, runs,
//  failures}}, "tips": [...]}
nlohmann::json scenario_summary(const ScenarioRun &run);

// {scenario: {roi_delta, raroi_delta, worst}}
nlohmann::json scenario_deltas(const scoring::ScenarioReport &report);

// Writes scenario_deltas.json and scorecard_<workflow>.json into `data_dir`.
void write_scenario_exports(const std::filesystem::path &data_dir, const ScenarioRun &run);

// The line above the report: "run-scenarios WF: 5 scenarios x 2 cells x 1 runs (seed 7,
// 2 workers) against baseline B", with the runs of robustness and fault scenarios when
// `plans` run some cells more often than the --repetitions.
std::string scenario_heading(const ScenarioRun &run, const std::vector<engine::CellPlan> &plans,
                             std::size_t scenarios, unsigned workers, bool has_baseline);

// The human report: a table, the delta lines ("hostile_input: -0.250 <== WORST"), the
// status and the tips.
std::string scenario_text(const ScenarioRun &run);

}  // namespace sbx::reports
