// What run-scenarios checks before any run or session, so a matrix that cannot mean what it
// says stops with exit 2 instead of recording faults that were never made: every step's
// program can run, safe_mode holds in the network, every fault has an injector that can make
// it here, and every limit holds as asked. Under --on slurm the nodes run the targets and
// each task judges its own node, so none of this is checked here.
#pragma once

#include <vector>

#include "config/settings.hpp"
#include "engine/plugin_set.hpp"
#include "presets/preset.hpp"

namespace sbx::engine {

// Throws InputError naming the first thing that cannot hold; `baseline` may be nullptr.
void refuse_unrunnable_scenarios(PluginSet &plugins, const config::Settings &settings,
                                 const config::Workflow &workflow, const config::Workflow *baseline,
                                 const std::vector<presets::Preset> &scenarios);

}  // namespace sbx::engine
