// What each matrix command's session records of the options it ran with, and what
// `--recover` takes back from it to plan the same matrix again. A key that a session
// recorded before the key existed is read as what that session did without it.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace sbx::engine {

// `run WORKFLOW`, `run --all-workflows`, `run --sections`.
struct RunSessionOptions {
    int runs = 1;
    int preset_count = 3;
    std::vector<std::string> preset_files;
    std::string on;  // "" (not given) or "local": this host; "slurm": a job array
};

// `run-scenarios WORKFLOW`.
struct ScenarioSessionOptions {
    int repetitions = 1;
    int robustness_repetitions = 1;
    bool all_scenarios = false;
    std::string on = "local";
    // Fault scenarios repeat as robustness scenarios do: every new session's, not those
    // recorded before they did.
    bool fault_scenarios_repeat = true;
};

// `simulate-temporal-trajectory WORKFLOW`.
struct TrajectorySessionOptions {
    int repetitions = 1;
    std::string on = "local";
};

// What a new session records. Preset files are kept absolute: --recover may be run from
// another directory.
nlohmann::json recorded_options(const RunSessionOptions &options);
nlohmann::json recorded_options(const ScenarioSessionOptions &options);
nlohmann::json recorded_options(const TrajectorySessionOptions &options);

// What --recover takes back from a session's recorded options.
RunSessionOptions recovered_run_options(const nlohmann::json &recorded);
ScenarioSessionOptions recovered_scenario_options(const nlohmann::json &recorded);
TrajectorySessionOptions recovered_trajectory_options(const nlohmann::json &recorded);

}  // namespace sbx::engine
