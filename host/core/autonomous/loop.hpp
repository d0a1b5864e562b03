// run-autonomous and run-complete (docs/user-guide.md "run-autonomous"): iterate
// presets → matrix of workflows (each alone, and all together) → tracking, forecasts and
// convergence, until every subject has converged, nothing new is being learned, or a limit
// runs out. Each iteration is one session of metrics.db; the loop's own state is
// autonomous_run.json, its decisions threshold_log.jsonl.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "autonomous/loop_decisions.hpp"
#include "autonomous/loop_options.hpp"
#include "autonomous/loop_state.hpp"
#include "config/settings.hpp"
#include "engine/run_observer.hpp"
#include "plugins/registry.hpp"
#include "store/plugin_failures.hpp"

namespace sbx::autonomous {

// Told of the loop's progress, for the caller to show it; called on the loop's thread.
class LoopObserver {
  public:
    virtual ~LoopObserver() = default;
    // The observer of the runs of `iteration` (from 1), told of each run; nullptr: none.
    virtual engine::RunObserver *iteration_started(int iteration) = 0;
    // The iteration's runs are over (its summary and forecasts are done).
    virtual void runs_finished() = 0;
    // `record` is kept and the loop has decided on it; its runs took `seconds`.
    virtual void iteration_finished(const IterationRecord &record, const LoopDecisions &decisions,
                                    int max_iterations, double seconds) = 0;
};

// What a loop that stopped leaves: its report (loop_report.hpp) and where it recorded.
struct LoopOutcome {
    nlohmann::json report;
    std::filesystem::path database;       // metrics.db
    std::filesystem::path threshold_log;  // threshold_log.jsonl
    std::filesystem::path state_path;     // autonomous_run.json
    // Each collector or predictor disabled in any of this process's iterations, at its
    // first failure: a plugin is disabled for the whole loop (one registry).
    std::vector<store::PluginFailure> disabled;
};

// Runs the loop, or resumes it with `options.recover` (the options then come from the
// state). InputError for a state, workflow or plugin that does not fit; throws
// engine::Cancelled when interrupted (the state keeps everything finished and the session
// in flight).
LoopOutcome run_autonomous_loop(const config::Settings &settings, plugins::Registry &registry,
                                const std::string &command, AutonomousOptions options,
                                LoopObserver &observer);

}  // namespace sbx::autonomous
