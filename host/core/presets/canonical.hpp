// The canonical failure profiles of docs/semantics.md ("Canonical presets"): six named profiles,
// each at a low and a high severity, as presets on a base of CPU_LIMIT=1, MEMORY_LIMIT=512Mi.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace sbx::presets {

// How hard a profile pushes: the low and high columns of the canonical table.
enum class Severity { low, high };

// "low" or "high".
std::string severity_name(Severity severity);
// Severity from "low" or "high" (exact); nullopt otherwise.
std::optional<Severity> parse_severity(std::string_view text);

// high_latency_api, hostile_input, user_misuse, concurrency_spike, schema_drift,
// flaky_upstream: the canonical order, which every list of profiles here follows.
const std::vector<std::string> &canonical_profile_names();

// The canonical name of a canonical name or an alias (high_latency -> high_latency_api,
// malicious_data -> hostile_input, schema_mismatch -> schema_drift, upstream_failure ->
// flaky_upstream). Throws InputError naming the unknown profile and listing the known names.
std::string resolve_profile_alias(const std::string &name);

// The keys a profile sets at a severity, as preset text ("200", "hostile"): neither the
// base (CPU_LIMIT, MEMORY_LIMIT) nor SCENARIO_NAME or FAILURE_MODES. `profile` may be an
// alias. The reference is valid for the life of the program.
const std::map<std::string, std::string> &profile_values(const std::string &profile,
                                                         Severity severity);
// The failure modes the profile's presets list in FAILURE_MODES, e.g. {hostile_input}.
const std::vector<std::string> &profile_failure_modes(const std::string &profile);

// "a,b,c": FAILURE_MODES as the comma-separated text a preset carries.
std::string failure_modes_text(const std::vector<std::string> &modes);

// The canonical preset: the base, the profile's values at `severity`, SCENARIO_NAME = the
// profile's canonical name, FAILURE_MODES = its failure modes. Every value is a string.
nlohmann::json canonical_preset(const std::string &profile, Severity severity);

// A combination of profiles written with '+' ("high_latency_api+hostile_input", aliases
// allowed): its canonical names in the order written. InputError for an unknown part, a
// part named twice, or two profiles that each choose the input stub strategy
// (hostile_input, user_misuse, schema_drift: one run feeds one strategy).
std::vector<std::string> resolve_profile_combination(const std::string &name);

// The keys the profiles of a combination set at `severity`: each profile's values; a key
// two of them set gets the larger number (the harsher), else the first one's value.
std::map<std::string, std::string> combined_profile_values(const std::vector<std::string> &parts,
                                                           Severity severity);

// The canonical preset of a combination: the base, combined_profile_values, SCENARIO_NAME =
// the canonical names joined with '+', FAILURE_MODES = every part's modes, in order. One
// part: canonical_preset.
nlohmann::json combined_canonical_preset(const std::vector<std::string> &parts, Severity severity);

// Every canonical profile in canonical order, at `severity`; both severities (low, then
// high, for each profile) when it is nullopt.
std::vector<nlohmann::json> generate_canonical_presets(std::optional<Severity> severity_or_both);

}  // namespace sbx::presets
