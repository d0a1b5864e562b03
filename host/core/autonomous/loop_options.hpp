// The options of the autonomous loop (run-autonomous, run-complete), kept in its state
// (autonomous_run.json) as JSON so a --recover goes on with the options the loop began with,
// whatever the command line and the environment say by then.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace sbx::autonomous {

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

    // Paths made absolute: a --recover may run from another directory.
    [[nodiscard]] nlohmann::json to_json() const;
    // Throws nlohmann::json::exception for a damaged entry.
    static AutonomousOptions from_json(const nlohmann::json &options);
};

}  // namespace sbx::autonomous
