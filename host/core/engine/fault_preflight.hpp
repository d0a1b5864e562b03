// Before any run: a fault a user's own preset asks for must have a loaded plugin to make it.
// A preset the user wrote that sets NETWORK_LATENCY_MS with no network injector loaded would
// otherwise run its whole matrix and report a verdict on a fault that never happened.
#pragma once

#include <vector>

#include "engine/plugin_set.hpp"
#include "presets/preset.hpp"

namespace sbx::engine {

// Throws InputError (exit 2) for the first preset the user wrote (in a file, the settings or
// the environment; not a built-in scenario or a generated preset) that asks for a fault whose
// built-in injector is not loaded, naming the preset, the key and the injector to list. The tool's
// own presets are left to the runs (such a scenario is not applicable, with the same reason). A
// loaded injector that is not built in may act on any key: with one loaded, nothing is refused
// here.
void refuse_unhandled_faults(PluginSet &plugins, const std::vector<presets::Preset> &presets);

}  // namespace sbx::engine
