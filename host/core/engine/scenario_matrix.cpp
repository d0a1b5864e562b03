// Planning, recovering and pairing the cells of a scenario matrix.
#include "engine/scenario_matrix.hpp"

#include "engine/run_outcome_class.hpp"

#include <algorithm>

namespace sbx::engine {

std::vector<CellPlan> scenario_cell_plans(const config::Workflow &workflow,
                                          const config::Workflow *baseline,
                                          const std::vector<presets::Preset> &scenarios,
                                          int repetitions, int robustness_repetitions,
                                          int64_t seed) {
    std::vector<CellPlan> plans;
    plans.reserve(scenarios.size() * 2);
    for (const auto &scenario : scenarios) {
        const int runs = is_robustness_preset(scenario)
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

namespace {

CellSummary summary_of(const store::FinishedCell &cell) {
    CellSummary summary;
    summary.workflow = cell.workflow;
    summary.preset = cell.preset;
    summary.flag = cell.flag;
    summary.runs = cell.runs;
    summary.passed = cell.passed;
    summary.roi = cell.roi;
    summary.metrics = cell.metrics;
    summary.cell_id = cell.cell_id;
    summary.not_applicable = cell.not_applicable;
    return summary;
}

}  // namespace

std::vector<bool> mark_finished(const std::vector<CellPlan> &plans,
                                const std::vector<store::FinishedCell> &finished,
                                std::vector<CellSummary> &summaries) {
    std::vector<bool> done(plans.size(), false);
    summaries.resize(plans.size());
    for (size_t i = 0; i < plans.size(); ++i) {
        const auto &plan = plans[i];
        const std::string flag = plan.options.counterfactual ? "off" : "on";
        for (const auto &cell : finished) {
            if (cell.workflow == plan.workflow->name && cell.preset == plan.preset.name &&
                cell.flag == flag) {
                done[i] = true;
                summaries[i] = summary_of(cell);
                break;
            }
        }
    }
    return done;
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
