// Which presets a command runs under: --preset-file, else SANDBOX_ENV_PRESETS, else the
// settings' presets, else generated ones (SANDBOX_GENERATE_PRESETS, SANDBOX_PRESET_MODE).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "config/settings.hpp"
#include "presets/preset.hpp"

namespace sbx::presets {

struct SelectionInputs {
    // --preset-file values, in the order given (repeatable).
    std::vector<std::string> preset_files;
    // How many random presets to generate when nothing else gives presets; at least 1.
    int preset_count = 3;
    // The seed of generated presets (the command's --seed).
    uint64_t seed = 0;
    // Inline `presets:` and the preset variables config::apply_environment read into them
    // (env_presets, generate_presets, canonical_presets); may be nullptr (no settings: the
    // defaults). Not owned; read during the call.
    const config::Settings *settings = nullptr;
    // Take preset keys from the host's environment (environment_keys.hpp): the settings'
    // preset_env.
    bool environment_keys = false;
    // The preset count was asked for (run-autonomous --preset-count): generated presets
    // win over SANDBOX_ENV_PRESETS and the settings' presets, which a warning names; with
    // generation off (SANDBOX_GENERATE_PRESETS=0) a warning says the count cannot be honoured.
    bool count_over_fixed = false;
};

// The presets, each validated as make_preset validates (units, limits, environment names),
// from the first source that gives any:
//   1. every preset of every --preset-file, files in order, presets in file order;
//   2. SANDBOX_ENV_PRESETS (JSON text: an object or a list of objects);
//   3. the settings' inline `presets:` when non-empty;
//   4. generated: SANDBOX_GENERATE_PRESETS=0 gives one preset {SCENARIO_NAME: normal};
//      else SANDBOX_PRESET_MODE=canonical gives the canonical presets; else
//      `preset_count` random presets from `seed`.
// With `environment_keys`, known preset keys set in the environment fill the keys written
// presets (1 to 3) leave out and replace generated values (4).
// The variables are read (and a typo in them refused) when the settings are loaded, so a
// typo is reported the first time rather than the day it matters. Throws InputError naming
// the file, variable or setting at fault and what is allowed.
std::vector<Preset> choose_presets(const SelectionInputs &inputs);

// One preset by name (`explore --preset`): the settings' preset whose SCENARIO_NAME is
// `name`, else the canonical profile `name` (or its alias) at low severity. Throws
// InputError, starting with `option` ("explore: --preset"), when it is neither.
Preset named_preset(const config::Settings &settings, const std::string &name,
                    const std::string &option);

// The presets of each file, one list per file, in order. Throws InputError for an
// unreadable or invalid file, or one that holds no preset.
std::vector<std::vector<Preset>> load_preset_files(const std::vector<std::string> &paths);

// Per-run rotation over preset files: run i uses file i mod n and, within it, preset
// (i div n) mod (presets in that file), so single-preset files simply take turns and a
// file of several presets walks through them on later rounds. `per_file` must be
// non-empty with no empty list (as load_preset_files returns); std::invalid_argument
// otherwise. The reference points into `per_file`.
const Preset &rotated(const std::vector<std::vector<Preset>> &per_file, size_t run_index);

}  // namespace sbx::presets
