// A cell: one workflow under one preset, with one flag (on, or the off counterfactual),
// run `runs` times. Produces inputs, runs, metrics, the cell's ROI and its forecast, and
// commits each run to the store as soon as it finishes.
#pragma once

#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/cancelled.hpp"
#include "engine/cell_work.hpp"
#include "engine/optional_plugins.hpp"
#include "engine/run_services.hpp"
#include "engine/workflow_runner.hpp"
#include "plugins/metric_aggregation.hpp"
#include "store/session_progress.hpp"
#include "store/store.hpp"

namespace sbx::engine {

class CellRunner {
  public:
    CellRunner(PluginSet &plugins, WorkflowRunner &runner, store::Store &store, int64_t session_id);

    // Generates the cell's inputs (through this runner's stub strategy) and registers its
    // preset. Throws InputError/EnvironmentError for a failing stub strategy.
    CellWork prepare(const config::Workflow &workflow, const presets::Preset &preset,
                     const CellOptions &options);
    // Executes repetition `repetition` of `work`, records it in the store and fills its
    // slot. Throws Cancelled when the host is stopping (nothing of this run is recorded).
    void run_one(CellWork &work, int repetition);
    // From now on run_one hands each run to the store's committer thread to write, and the
    // slot's run_id is known when finish() has run: the writes leave the worker's path.
    void record_in_background() { in_background_ = true; }
    // Aggregates the filled slots (in repetition order, so the result does not depend on
    // which worker ran what), asks the cell-phase collectors and the predictor, records
    // the cell.
    CellSummary finish(CellWork &work);
    // The summary of a cell an interrupted session recorded, its slots filled with the
    // committed runs: what finish returned then, without asking or recording anything.
    CellSummary restore(const CellWork &work, const store::RecordedCell &cell) const;
    // prepare, every repetition in order, finish.
    CellSummary run(const config::Workflow &workflow, const presets::Preset &preset,
                    const CellOptions &options);

  private:
    // What the filled slots say about the cell, without any plugin call or record: counts,
    // failures, metrics by their aggregation, input coverage, applicability.
    CellSummary summarize(const CellWork &work) const;
    // Every collector's metrics for `request_json`, each answer checked (answer_contract);
    // what they declare goes into `aggregations` and `collector_metrics` when given. A
    // disabled collector is skipped; one that fails goes into `failed` (`context` says
    // where), to be disabled once its run has an id (optional_plugins.hpp).
    std::map<std::string, double> collect(const std::string &request_json,
                                          const std::string &context,
                                          std::vector<FailedCall> &failed,
                                          std::map<std::string, plugins::Aggregation> *aggregations,
                                          std::set<std::string> *collector_metrics);

    PluginSet &plugins_;
    WorkflowRunner &runner_;
    store::Store &store_;
    int64_t session_id_;
    bool in_background_ = false;
};

}  // namespace sbx::engine
