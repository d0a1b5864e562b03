// `presets generate`: generated presets passed through the same checks `run --preset-file`
// makes, so what the command prints is always runnable. The CLI draws the seed and prints.
#pragma once

#include <nlohmann/json.hpp>

#include "presets/generator.hpp"

namespace sbx::presets {

// The presets' bodies as a JSON array. `preset_env`: known preset keys in the environment
// replace the generated values. Throws InputError for a preset the checks refuse.
nlohmann::json generate_checked_presets(const GenerateOptions &options, bool preset_env);

}  // namespace sbx::presets
