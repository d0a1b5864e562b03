// The presets of each iteration of the autonomous loop (docs/user-guide.md
// "run-autonomous"): the first iteration's are chosen as every command chooses them
// (--preset-count winning over fixed presets); each later one runs the previous iteration's
// presets adapted (presets/preset_adaptation.hpp) to what the loop has seen of each.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "autonomous/loop_options.hpp"
#include "autonomous/loop_state.hpp"
#include "config/settings.hpp"
#include "presets/preset.hpp"
#include "presets/q_policy.hpp"

namespace sbx::autonomous {

struct IterationPresets {
    std::vector<presets::Preset> presets;
    nlohmann::json adaptation = nlohmann::json::array();  // PresetDecision JSON, per preset
};

// The presets of `iteration` (from 1), with `seed` its seed. With q_learning the policy
// learns from the previous iteration's steps and remembers the new ones (the caller saves
// it).
IterationPresets iteration_presets(const AutonomousState &state, const AutonomousOptions &options,
                                   const config::Settings &settings, int64_t seed,
                                   presets::QPolicy &policy);

// The state's kept presets of `iteration` ({iteration, bodies, adaptation}) as presets.
IterationPresets kept_presets(const nlohmann::json &kept, const std::string &origin);
nlohmann::json keep_presets(int iteration, const IterationPresets &chosen);

// "4 settings changed: calm CPU_LIMIT 4 -> 8, ..." for the progress lines; "" when nothing
// was adapted.
std::string adaptation_summary(const nlohmann::json &adaptation);

}  // namespace sbx::autonomous
