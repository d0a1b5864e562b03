// Preset keys taken from the host's environment, as the original tool read them
// (`export CPU_LIMIT=2`, `export FAILURE_MODES=concurrency_spike THREAD_BURST=32`).
// Precedence: a key written in a preset (a --preset-file, SANDBOX_ENV_PRESETS, the settings'
// presets:) beats the environment, which beats a generated value.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "presets/preset.hpp"

namespace sbx::presets {

// Every known preset key (is_known_key) set and non-empty in the environment, except
// SCENARIO_NAME (names are the presets' own) and SANDBOX_STUB_STRATEGY (a setting of its
// own, applied as one). Each value is checked as a preset value; InputError names the
// variable and what to write.
nlohmann::json environment_preset_keys();

// Adds `keys` to each preset: where the preset has none of a key (`written`: presets
// somebody wrote) or over its value (generated presets). A preset that changes is checked
// again (units, limits) and keeps its name and origin. Logs the keys applied, once.
void apply_environment_keys(std::vector<Preset> &presets, const nlohmann::json &keys, bool written);

}  // namespace sbx::presets
