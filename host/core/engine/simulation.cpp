// Planning and scoring section and workflow simulations.
#include "engine/simulation.hpp"

#include <algorithm>
#include <memory>

namespace sbx::engine {

config::Workflow section_workflow(const std::filesystem::path &target,
                                  const std::filesystem::path &repo) {
    std::string name = target.lexically_relative(repo).string();
    if (name.empty() || name.rfind("..", 0) == 0) {
        name = target.filename().string();
    }
    for (char &c : name) {
        const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                           (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
        c = plain ? c : '_';
    }
    if (name.front() == '.' || name.front() == '-') {
        name.insert(name.begin(), '_');
    }
    config::Workflow workflow;
    workflow.name = name;
    config::Step step;
    step.name = name;
    step.run = {target.string()};
    workflow.steps.push_back(std::move(step));
    return workflow;
}

config::Workflow combine_workflows(const std::vector<const config::Workflow *> &parts,
                                   const std::string &name) {
    config::Workflow combined;
    combined.name = name;
    for (const auto *part : parts) {
        for (auto step : part->steps) {
            step.name = part->name + "/" + step.name;
            combined.steps.push_back(std::move(step));
        }
    }
    return combined;
}

std::vector<PresetOutcome> run_simulation(const Simulation &simulation, MatrixRunner &runner,
                                          int runs, int64_t seed) {
    // Combined workflows live here for the whole matrix: plans point at them.
    std::vector<std::unique_ptr<config::Workflow>> combined;
    std::vector<CellPlan> plans;
    std::vector<PresetOutcome> outcomes;
    struct Slots {
        std::vector<size_t> parts;  // plan index of each part cell
        size_t combined = 0;
    };
    std::vector<Slots> slots;
    for (const auto &preset : simulation.presets) {
        PresetOutcome outcome;
        outcome.preset = preset.name;
        Slots slot;
        std::vector<const config::Workflow *> members;
        for (const auto &part : simulation.parts) {
            if (std::find(part.presets.begin(), part.presets.end(), preset.name) ==
                part.presets.end()) {
                continue;
            }
            slot.parts.push_back(plans.size());
            plans.push_back({&part.workflow, preset, {runs, seed, false}});
            members.push_back(&part.workflow);
        }
        // One part alone has nothing to be synergetic with.
        if (members.size() >= 2) {
            combined.push_back(std::make_unique<config::Workflow>(
                combine_workflows(members, simulation.combined_name)));
            slot.combined = plans.size();
            plans.push_back({combined.back().get(), preset, {runs, seed, false}});
            outcome.has_combined = true;
        }
        outcomes.push_back(std::move(outcome));
        slots.push_back(std::move(slot));
    }

    const auto cells = runner.run(plans);
    for (size_t i = 0; i < outcomes.size(); ++i) {
        auto &outcome = outcomes[i];
        std::vector<scoring::CellResult> parts;
        for (const size_t index : slots[i].parts) {
            outcome.parts.push_back(cells[index]);
            parts.push_back({cells[index].roi, cells[index].metrics});
        }
        if (outcome.has_combined) {
            outcome.combined = cells[slots[i].combined];
            outcome.synergy =
                scoring::synergy({outcome.combined.roi, outcome.combined.metrics}, parts);
        }
    }
    return outcomes;
}

}  // namespace sbx::engine
