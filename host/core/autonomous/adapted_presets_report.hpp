// What adapt-presets reports of the presets it adapted: every decision with the signals
// behind it and each key's step, as JSON or as text, with where the presets and policy went.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "autonomous/preset_adapting.hpp"

namespace sbx::autonomous {

// {strategy, seed, history, policy (null unless learning), out, changed, decisions, presets}.
nlohmann::json adapted_presets_json(const AdaptedPresets &adapted, int64_t seed);

// A heading line, a block per preset (its signals, the reward learned, a line per key) and
// the count of settings changed with where the presets (and the policy) are kept.
std::string adapted_presets_text(const AdaptedPresets &adapted, int64_t seed);

}  // namespace sbx::autonomous
