// The counterfactual scenario matrix of run-scenarios (docs/semantics.md, "Scenarios of
// run-scenarios"): every scenario as two cells, the workflow on and its counterfactual off (steps
// replaced by a no-op through the same executor), or the workflow's `baseline:` workflow in A/B
// mode.
#pragma once

#include <vector>

#include "engine/matrix_runner.hpp"

namespace sbx::engine {

struct ScenarioCells {
    std::string scenario;
    CellSummary on;
    CellSummary off;
    // A robustness scenario (engine/run_outcome_class.hpp): reports give its outcome classes.
    bool robustness = false;
};

// Plans in matrix order: scenario i's on-cell at 2i, its off-cell at 2i + 1. Every cell of
// a scenario uses the same seed, so on and off see the same inputs. A scenario one run says
// little of runs max(repetitions, robustness_repetitions) times: a robustness one (one input
// of many) and, when `fault_scenarios_too`, one with an environment fault (the first runs
// meet it where it cannot be missed, later ones as the preset's rates draw it). A session recorded
// before fault scenarios were repeated is recovered with `fault_scenarios_too` false.
std::vector<CellPlan> scenario_cell_plans(const config::Workflow &workflow,
                                          const config::Workflow *baseline,
                                          const std::vector<presets::Preset> &scenarios,
                                          int repetitions, int robustness_repetitions, int64_t seed,
                                          bool fault_scenarios_too);

// Pairs the summaries back into scenarios.
std::vector<ScenarioCells> pair_scenarios(const std::vector<presets::Preset> &scenarios,
                                          const std::vector<CellSummary> &summaries);

}  // namespace sbx::engine
