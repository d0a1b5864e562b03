// Checking every plugin a matrix will call before anything is recorded: the executor of each
// workflow (and of each preset that picks its own) and the stub strategies each preset asks
// for, so a typo is exit 2 up front rather than a failure halfway through a session.
#pragma once

#include <vector>

#include "config/settings.hpp"
#include "engine/plugin_set.hpp"
#include "presets/preset.hpp"

namespace sbx::engine {

void resolve_plugins_for(PluginSet &plugins, const std::vector<const config::Workflow *> &workflows,
                         const std::vector<presets::Preset> &presets);

}  // namespace sbx::engine
