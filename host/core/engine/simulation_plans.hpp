// What a simulation runs (docs/semantics.md "Synergy"): `run --all-workflows` runs every
// workflow of the settings under the presets chosen from `selection`; `run --sections` runs
// every executable the settings' target globs match as a section, each under every
// canonical profile (the guarantee) and at high severity under those its path's keywords
// name. Parts the tracker has flagged converged are skipped.
#pragma once

#include <filesystem>
#include <vector>

#include "config/settings.hpp"
#include "engine/simulation.hpp"
#include "presets/selection.hpp"
#include "scoring/tracker_settings.hpp"

namespace sbx::engine {

// InputError when the settings define no workflows.
Simulation workflow_simulation(const config::Settings &settings,
                               const presets::SelectionInputs &selection);

// InputError when the settings list no targets, or a glob matches no executable.
Simulation section_simulation(const config::Settings &settings,
                              const presets::SelectionInputs &selection);

// Drops the parts listed converged in `flags` (<data_dir>/<subject>.flags), each logged:
// they have stopped paying off (delete the file to bring them back).
void skip_converged_parts(Simulation &simulation, const std::filesystem::path &flags,
                          const scoring::TrackerSettings &settings);

}  // namespace sbx::engine
