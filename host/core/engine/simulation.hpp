// Section and workflow simulations (docs/semantics.md "Synergy"): every part (a section — one
// target executable — or a workflow) runs on its own under each of its presets, then all
// parts of a preset run together as one combined workflow; the combined cell against the
// mean of the parts is the synergy.
#pragma once

#include <string>
#include <vector>

#include "engine/matrix_runner.hpp"
#include "scoring/synergy.hpp"

namespace sbx::engine {

struct SimulationPart {
    config::Workflow workflow;
    std::vector<std::string> presets;  // names of the presets this part runs under
};

struct Simulation {
    std::string subject;        // "sections" or "workflows": the synergy rows' subject
    std::string combined_name;  // "all_sections" or "all_workflows"
    std::vector<SimulationPart> parts;
    std::vector<presets::Preset> presets;  // every preset any part uses, in order
};

struct PresetOutcome {
    std::string preset;
    std::vector<CellSummary> parts;  // the parts that ran under this preset, in part order
    CellSummary combined;            // meaningful when parts.size() >= 2
    bool has_combined = false;
    scoring::SynergyResult synergy;
};

// One step running `target` (an executable path), passing on exit code 0; named after the
// target's path relative to `repo` with anything but [A-Za-z0-9_.-] turned into '_'.
config::Workflow section_workflow(const std::filesystem::path &target,
                                  const std::filesystem::path &repo);

// Every step of `parts` in order, step names prefixed "<workflow>/", input slots merged
// (the first declaration of a name wins, so parts sharing a slot name share its value).
config::Workflow combine_workflows(const std::vector<const config::Workflow *> &parts,
                                   const std::string &name);

// Runs the simulation on the pool: all part cells and combined cells in one matrix.
// The combined workflows are built and owned inside; results come back per preset.
std::vector<PresetOutcome> run_simulation(const Simulation &simulation, MatrixRunner &runner,
                                          int runs, int64_t seed);

}  // namespace sbx::engine
