// `presets generate`: seeded random presets from the pools of docs/semantics.md, optionally
// built on named profiles, and canonical presets on request. Same options, same bytes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "presets/canonical.hpp"

namespace sbx::presets {

struct GenerateOptions {
    // How many random presets; ignored with `canonical`. Must not be negative.
    int count = 3;
    // The whole output is a function of the options, this seed included.
    uint64_t seed = 0;
    // Canonical names or aliases, or combinations of them joined with '+'
    // (high_latency_api+hostile_input: one preset on both). Random mode: preset i is built on
    // profiles[i mod n] (repeats kept).
    // Canonical mode: only these profiles (in the order given, each once). Empty: none /
    // all of them.
    std::vector<std::string> profiles;
    // Which column of the canonical table profile values come from; nullopt: drawn per
    // preset (random mode) or both (canonical mode).
    std::optional<Severity> severity;
    // The canonical presets instead of random ones.
    bool canonical = false;
};

// The presets the options describe, every value a string, each accepted by
// config::check_preset_value and presets::make_preset. The random algorithm is written out
// at the top of generator.cpp; tests/presets/golden/ pins its output. Throws InputError
// for an unknown profile or a negative count.
std::vector<nlohmann::json> generate_presets(const GenerateOptions &options);

// The naming rule: NETWORK_LATENCY_MS >= 200 and (NETWORK_JITTER_MS >= 20 or PACKET_LOSS
// >= 0.05), or API_LATENCY_MS >= 500. Absent or unreadable values count as 0.
bool is_high_latency_api(const nlohmann::json &preset);

// The failure modes random presets draw from, in the order FAILURE_MODES lists them.
// user_misuse is not among them: it appears only when asked for.
const std::vector<std::string> &random_failure_modes();

}  // namespace sbx::presets
