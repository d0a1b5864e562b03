// The preflights of `run WORKFLOW`, in order, before any run or session: a step whose
// program cannot run, safe_mode that cannot hold, faults no injector makes, limits that
// would be downgraded. run-scenarios has its own (scenario_preflight).
#pragma once

#include <vector>

#include "config/settings.hpp"
#include "engine/plugin_set.hpp"
#include "presets/preset.hpp"

namespace sbx::engine {

// Throws InputError naming the first thing that cannot hold here. Not asked under
// --on slurm: the nodes run the targets, and each task judges its own node.
void refuse_unrunnable_run(PluginSet &plugins, const config::Settings &settings,
                           const config::Workflow &workflow,
                           const std::vector<presets::Preset> &presets);

}  // namespace sbx::engine
