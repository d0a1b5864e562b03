// Which canonical profiles a target deserves, from the words of its path (docs/semantics.md,
// "Keyword profiles"), and the rule that section simulations cover every wanted profile.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace sbx::presets {

// The built-in map: keyword (lower case) -> canonical profiles. util, utils, common,
// misc and shared map to every canonical profile.
const std::map<std::string, std::vector<std::string>> &builtin_keyword_profiles();

// The words of a path, lower case. Rationale: whole words rather than substrings, so "api"
// does not match "capital" nor "auth" match "author". A word boundary is every character
// that is not an ASCII letter or digit, and a camelCase step (a lower-case letter or digit
// then an upper-case letter, or the last capital of an acronym before a lower-case letter):
// "src/DatabasePool.cpp" -> src, database, pool, cpp; "HTTPServer" -> http, server;
// "utils2" stays one word.
std::vector<std::string> path_words(const std::string &path);

// The canonical profiles for a target or module path, in canonical order: the union over
// every word of the path that is a keyword. `yaml_overrides` (settings keyword_profiles)
// adds keywords and replaces a built-in keyword of the same name (compared case-
// insensitively); an empty list removes the keyword. Profile names there may be aliases.
// No keyword in the path: every canonical profile. The path is used as given, so pass it
// relative to the project (an absolute path's parent folders would count too).
std::vector<std::string> profiles_for_path(
    const std::string &target_path,
    const std::map<std::string, std::vector<std::string>> &yaml_overrides);

// Only the profiles the path's keywords name (empty when none does): the profiles a section
// simulation runs at high severity too, beside every profile's low preset.
std::vector<std::string> keyword_matches_for_path(
    const std::string &target_path,
    const std::map<std::string, std::vector<std::string>> &yaml_overrides);

// The canonical profiles a preset covers, in canonical order: its SCENARIO_NAME and each
// '+'-separated part of it ("hostile_input+memory") that is a profile's name or alias.
// Empty for a preset of its own ("normal", "tight_memory") or one without a SCENARIO_NAME.
std::vector<std::string> profiles_covered_by(const nlohmann::json &preset);

// `presets` followed by the low canonical preset of every wanted profile (canonical order)
// that no preset covers (profiles_covered_by). With
// `fail_on_missing` (SANDBOX_FAIL_ON_MISSING_SCENARIOS=1) a missing profile is an
// InputError listing them instead.
std::vector<nlohmann::json> add_missing_canonical(std::vector<nlohmann::json> presets,
                                                  const std::vector<std::string> &wanted_profiles,
                                                  bool fail_on_missing);

}  // namespace sbx::presets
