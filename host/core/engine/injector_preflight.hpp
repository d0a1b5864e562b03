// Before any run: each loaded injector checks, once per preset, that it can make that
// preset's faults here. A network injector on a machine without user namespaces (or a
// preset value it refuses) would otherwise fail every run of the matrix, one error at a time.
#pragma once

#include <string>
#include <vector>

#include "engine/fault_preflight.hpp"
#include "engine/plugin_set.hpp"
#include "presets/preset.hpp"

namespace sbx::engine {

// Sends each injector a prepare request with `"probe": true` for each preset (a spec that
// runs nothing). An injector answers SBX_UNSUPPORTED (this machine cannot make the fault)
// or SBX_INVALID (the preset's value is wrong): throws InputError (exit 2) naming the
// preset, where it came from, the plugin and its message. Any other failure is left to the
// runs, which report it in their place. An injector that ignores `probe` and prepares for
// real is torn down at once. An inactive answer with `"idle": true` promises inactivity for
// every run under that preset: `plugins` marks the injector idle for it.
//
// Returns, per preset in order, what the injectors claimed of it (the answer's "claims": the
// keys and failure modes it makes), for refuse_unhandled_faults.
std::vector<FaultClaims> refuse_unworkable_faults(PluginSet &plugins,
                                                  const std::vector<presets::Preset> &presets,
                                                  const std::string &state_dir);

}  // namespace sbx::engine
