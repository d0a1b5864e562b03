// safe_mode, checked before anything runs: the plugins that keep a run off the network must
// be there and say they can. A run is never made unprotected: what cannot hold stops the
// command with exit 2, naming the workflow's `safe_mode` line and what to change.
#pragma once

#include <string>
#include <vector>

#include "config/settings.hpp"
#include "engine/plugin_set.hpp"
#include "presets/preset.hpp"

namespace sbx::engine {

// InputError at the safe_mode line of a workflow with safe_mode when `injectors:` lacks
// `network` (nothing would make its namespace), or lacks `fault_proxy` while the workflow
// has upstreams, services or network mocks (nothing would reach them from the namespace).
void check_safe_mode_injectors(const config::Settings &settings);

// For a workflow with safe_mode: the network injector's probe (it can make a namespace
// here: user namespaces allowed, iproute2 present) and one probe run (`probe: true`,
// `safe_mode: true`) on each executor the presets choose, which must answer `safe_mode`
// with how it holds it. InputError naming the workflow and the executor otherwise.
void refuse_unsafe_network(PluginSet &plugins, const config::Workflow &workflow,
                           const std::vector<presets::Preset> &presets,
                           const std::string &state_dir);

}  // namespace sbx::engine
