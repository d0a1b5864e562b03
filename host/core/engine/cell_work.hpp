// The data of a cell: its options, the result of each run, the work in flight and the
// summary. Its own header so that what reads or stores these (cell_share, cell_rounds,
// session_recovery, run_errors) does not include the runner that makes them.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "config/settings.hpp"
#include "engine/fault_accounting.hpp"
#include "engine/run_services.hpp"
#include "plugins/metric_aggregation.hpp"
#include "presets/preset.hpp"

namespace sbx::engine {

struct CellOptions {
    int runs = 1;
    int64_t seed = 0;
    bool counterfactual = false;
};

struct CellSummary {
    std::string workflow;
    std::string preset;
    std::string flag;
    int runs = 0;
    int passed = 0;      // runs in which every copy passed
    int executions = 0;  // runs × CONCURRENCY_LEVEL
    int passed_executions = 0;
    double roi = 0;                         // passed_executions / executions
    std::map<std::string, double> metrics;  // over the runs: mean, or as the collector says
    // Metrics of collectors other than the default process_metrics and extended, in name
    // order.
    std::vector<std::string> collector_metrics;
    std::map<std::string, int> failures;  // "step: reason" -> count
    // Runs that were errors of the setup, not verdicts (RunOutcome::harness_error): left out
    // of `passed`, `executions` and the ROI.
    int errored = 0;
    std::map<std::string, int> errors;  // error -> runs
    // Why the cell's first failed run (by repetition) failed (engine/failure_detail.hpp).
    std::string failure_detail;
    std::vector<std::string> active_injectors;
    // Which faults the runs got (engine/fault_accounting.hpp): what each source applied (the
    // first run's words) and why a source applied nothing, over the scored runs. Counts per
    // source are the `faults_applied.<source>` metrics.
    FaultTally faults;
    // "limit cpu 0.5 (cgroup_v1) in 3/3 runs": the injected faults, for reports; "" when the
    // preset asks for no fault of the environment.
    [[nodiscard]] std::string injected() const;
    // The runs the metrics and the ROI rest on: those that were not errors.
    [[nodiscard]] int scored_runs() const { return runs - errored; }
    nlohmann::json forecast;  // the predictor's answer for the next ROI of this cell
    int64_t cell_id = 0;
    std::string strategy;    // what made the inputs: a strategy chain, or input_stubs
    int64_t failed_run = 0;  // runs.id of the cell's first failed run (by repetition), 0: none
    // runs.id of the first failed run whose inputs held a polyglot (a slot's meta lists
    // `parts`), 0: none; run-scenarios shrinks it to name the part that mattered.
    int64_t polyglot_failed_run = 0;
    // Why the preset's faults cannot reach this workflow's target (engine/fault_reach.hpp);
    // "" when they can.
    std::string not_applicable;
    // An on-cell of a robustness scenario (engine/run_outcome_class.hpp): reports give the
    // outcome classes of its runs.
    bool robustness = false;
};

// What one run of a cell left for the cell's summary.
struct RunResult {
    bool passed = false;
    int executions = 1;  // CONCURRENCY_LEVEL copies
    int passed_executions = 0;
    std::map<std::string, double> metrics;
    // What the collectors' answers said besides the numbers: how a metric folds into its
    // cell, and which metrics are not the default collectors' (listed by the report).
    std::map<std::string, plugins::Aggregation> aggregations;
    std::set<std::string> collector_metrics;
    std::vector<std::string> failures;  // "step: reason" of the failed step, if any
    std::string harness_error;          // RunOutcome::harness_error
    std::string failure_detail;         // RunOutcome::failure_detail
    FaultTally faults;                  // RunOutcome::faults
    std::vector<std::string> active_injectors;
    int64_t run_id = 0;  // runs.id
    // The store's ticket while the run waits for its write (CellRunner::record_in_background);
    // finish() turns it into run_id.
    uint64_t record_ticket = 0;
};

// A cell in flight: its inputs, generated once, and a slot per repetition. Runs of one
// cell may execute on different workers; the cell is finished once all slots are filled.
struct CellWork {
    const config::Workflow *workflow = nullptr;
    presets::Preset preset;
    CellOptions options;
    int64_t preset_id = 0;
    nlohmann::json input_sets;
    nlohmann::json input_meta;        // parallel to input_sets (see CellInputs)
    std::string strategy;             // what made the inputs
    nlohmann::json input_categories;  // {strategy: [category, ...]} (see CellInputs)
    std::string preset_text;
    std::vector<RunResult> results;  // by repetition
    // Cell metrics the matrix made, not the runs: coverage feedback's `feedback_inputs`
    // and `feedback_runs` (engine/cell_rounds.hpp).
    std::map<std::string, double> cell_metrics;
    // The workflow's services when they run once per cell (service_scope: cell).
    std::shared_ptr<CellServices> services = std::make_shared<CellServices>();
};

}  // namespace sbx::engine
