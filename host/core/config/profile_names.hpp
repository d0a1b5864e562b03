// The names of the canonical failure profiles and their aliases (docs/semantics.md, "Canonical
// presets"). In config because the settings loader checks `keyword_profiles:` against them; the
// values of each profile live in presets/canonical.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sbx::config {

// high_latency_api, hostile_input, user_misuse, concurrency_spike, schema_drift,
// flaky_upstream: the canonical order, which every list of profiles follows.
const std::vector<std::string> &canonical_profile_names();

// The canonical name of a canonical name or an alias (high_latency -> high_latency_api,
// malicious_data -> hostile_input, schema_mismatch -> schema_drift, upstream_failure ->
// flaky_upstream); nullopt for anything else. Exact match: names are lower case.
std::optional<std::string> canonical_profile_name(std::string_view name_or_alias);

// What to write instead of an unknown profile name: "did you mean 'x'? " when one is
// close, then "write one of <names> (aliases: <aliases>)".
std::string profile_name_hint(std::string_view unknown);

}  // namespace sbx::config
