// What a recorded session holds, read back from metrics.db for the reports (`report`) and
// the dashboard: the session, each workflow's scenario matrix with deltas, verdict and worst
// scenario, and each failing scenario's reasons, failed runs and the line that replays one.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "store/plugin_failures.hpp"
#include "store/sqlite_handle.hpp"

namespace sbx::reports {

struct ScenarioOutcome {
    std::string scenario;
    double roi_on = 0, roi_off = 0, roi_delta = 0;
    double raroi_on = 0, raroi_off = 0, raroi_delta = 0;
    bool failed = false;
    bool worst = false;
    std::string not_applicable;        // why it proves nothing, or ""
    std::string inconclusive;          // why errors of the setup left no verdict, or ""
    std::string broken;                // on `normal`: why every on-run failed, or ""
    std::vector<std::string> reasons;  // why it failed
    std::string tip;                   // the hardening tip when it failed
    int runs = 0;                      // on-cell runs
    int failed_runs = 0;
    double wall_s = 0;        // the on and off runs' wall time
    int64_t replay_run = 0;   // the first failed on-run (by repetition), 0: none
    std::string failed_step;  // that run's failed step and outcome class
    std::string failed_outcome;
    // Why that run failed: exit code or signal and the last stderr lines
    // (engine/failure_detail.hpp); "" for a run recorded before schema 10.
    std::string failure_detail;
};

struct WorkflowOutcome {
    std::string workflow;
    // "pass", "situationally weak", "fail", "not applicable", "inconclusive", "broken"
    std::string verdict;
    std::string broken;  // why the workflow is broken, or ""
    std::string worst_scenario;
    std::vector<ScenarioOutcome> scenarios;  // in matrix order
};

struct SessionReport {
    int64_t session = 0;
    std::string command;
    std::string started_at;
    std::string finished_at;
    std::string status;
    std::optional<int64_t> seed;
    std::string host_version;
    std::string settings_source;  // the settings file the session ran with (replay lines)
    int64_t recorded_runs = 0;    // runs committed, finished or not
    std::vector<WorkflowOutcome> workflows;  // by name
    // Metrics collectors and predictors disabled after a failed call: their numbers are
    // absent from the failure on (engine/optional_plugins.hpp).
    std::vector<store::PluginFailure> disabled_plugins;
};

// The newest session that recorded scenario scores or ran `run-scenarios` (finished or not),
// or nullopt.
std::optional<int64_t> latest_scored_session(store::Connection &db);

// Throws InputError naming the session when metrics.db does not hold it.
SessionReport load_session_report(store::Connection &db, int64_t session);

// The verdict of a workflow whose applicable scenarios failed `failing` times and passed
// `passing` times (docs/semantics.md "Statuses").
std::string verdict_text(int failing, int passing);

nlohmann::json to_json(const SessionReport &report);

// One line per disabled plugin, for every report format: "plugin lintrend (predictor) was
// disabled: <reason>; its forecasts are absent from <where> on; replay: <line>".
std::vector<std::string> disabled_plugin_lines(const std::vector<store::PluginFailure> &disabled);

// The same as JSON objects (the plugin_failures columns), for --json outputs.
nlohmann::json disabled_plugins_json(const std::vector<store::PluginFailure> &disabled);

// "" for a finished session; else what a shared report must say first, so that an
// unfinished matrix never reads as green: "interrupted after 41 runs: the matrix did not
// finish; finish it with `<command_prefix> run-scenarios web --recover`".
std::string unfinished_text(const SessionReport &report, const std::string &command_prefix);

}  // namespace sbx::reports
