// Planning and pairing the cells of a scenario matrix.
#include "engine/scenario_matrix.hpp"

#include "engine/fault_accounting.hpp"
#include "engine/run_outcome_class.hpp"

#include <algorithm>

namespace sbx::engine {
namespace {

bool runs_repeatedly(const presets::Preset &scenario, bool fault_scenarios_too) {
    return is_robustness_preset(scenario) ||
           (fault_scenarios_too && !environment_faults(scenario).empty());
}

}  // namespace

std::vector<CellPlan> scenario_cell_plans(const config::Workflow &workflow,
                                          const config::Workflow *baseline,
                                          const std::vector<presets::Preset> &scenarios,
                                          int repetitions, int robustness_repetitions, int64_t seed,
                                          bool fault_scenarios_too) {
    std::vector<CellPlan> plans;
    plans.reserve(scenarios.size() * 2);
    for (const auto &scenario : scenarios) {
        const int runs = runs_repeatedly(scenario, fault_scenarios_too)
                             ? std::max(repetitions, robustness_repetitions)
                             : repetitions;
        plans.push_back({&workflow, scenario, {runs, seed, false}});
        if (baseline != nullptr) {
            plans.push_back({baseline, scenario, {runs, seed, false}});
        } else {
            plans.push_back({&workflow, scenario, {runs, seed, true}});
        }
    }
    return plans;
}

std::vector<ScenarioCells> pair_scenarios(const std::vector<presets::Preset> &scenarios,
                                          const std::vector<CellSummary> &summaries) {
    std::vector<ScenarioCells> paired;
    for (size_t i = 0; i < scenarios.size() && 2 * i + 1 < summaries.size(); ++i) {
        paired.push_back({scenarios[i].name, summaries[2 * i], summaries[2 * i + 1],
                          is_robustness_preset(scenarios[i])});
    }
    return paired;
}

}  // namespace sbx::engine
