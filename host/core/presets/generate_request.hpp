// The options of `presets generate` as the user wrote them, checked one by one into the
// generator's options: each refusal names its option and says what to write instead.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "presets/generator.hpp"

namespace sbx::presets {

// The words given; nullopt: the option was left out.
struct GenerateWords {
    std::optional<std::vector<std::string>> profiles;  // "a b,c": commas separate too
    std::optional<std::string> count, severity, seed, out;
    bool canonical = false;
};

struct GenerateRequest {
    GenerateOptions options;
    bool seed_given = false;  // else the caller draws one (and says which)
    std::string out;          // "" = stdout
};

// More would be a typo rather than a plan, and each preset is held in memory.
constexpr uint64_t kMaxGeneratedPresets = 100000;

// Throws InputError "presets generate: PROBLEM; HINT" for an unknown profile, a count
// outside 1..kMaxGeneratedPresets, a seed that is not a whole number, an unknown severity,
// --count or --seed with --canonical, and an --out that is empty or a directory. One
// preset per profile unless --count says otherwise.
GenerateRequest check_generate_words(const GenerateWords &words);

}  // namespace sbx::presets
