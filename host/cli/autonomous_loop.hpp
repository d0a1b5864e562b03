// full-autonomous-run and run-complete (docs/user-guide.md "full-autonomous-run"): iterate
// presets → matrix of workflows (each alone, and all together) → tracking, forecasts and
// convergence, until every subject has converged, nothing new is being learned, or a limit
// runs out. Each iteration is one session of metrics.db; the loop's own state is
// autonomous_run.json, its decisions threshold_log.jsonl.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_context.hpp"

namespace sbx::cli {

struct AutonomousOptions {
    std::vector<std::string> workflows;  // empty: every workflow of the settings
    int max_iterations = 10;
    double max_minutes = 0;  // 0: no time limit
    int preset_count = 3;
    // --preset-count was given: generated presets win over the settings' fixed ones.
    bool preset_count_given = false;
    // How presets change between iterations: q_learning, rules, or fixed; "" for the
    // settings' preset_strategy (SANDBOX_PRESET_RL_STRATEGY).
    std::string preset_strategy;
    std::vector<std::string> preset_files;
    int runs = 1;       // runs per cell
    int64_t seed = -1;  // -1: drawn
    unsigned workers = 0;
    std::optional<int> roi_cycles, synergy_cycles;
    std::optional<double> roi_threshold, synergy_threshold, entropy_threshold;
    // The derived synergy threshold's window and newest weight; the entropy plateau's run
    // of iterations (--consecutive).
    std::optional<int> synergy_threshold_window, entropy_plateau_consecutive;
    std::optional<double> synergy_threshold_weight;
    std::string forecast_log;  // JSONL file, "" for none
    bool recover = false;
    bool json_output = false;

    [[nodiscard]] nlohmann::json to_json() const;
    static AutonomousOptions from_json(const nlohmann::json &options);
};

// Runs the loop, or resumes it with `options.recover`; prints a progress line per iteration
// and the final report. Throws engine::Cancelled when interrupted (the state keeps
// everything finished and the session in flight).
int run_autonomous_loop(CliContext &context, const std::string &command, AutonomousOptions options);

}  // namespace sbx::cli
