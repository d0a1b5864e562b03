// The scenario lists of run-scenarios and simulate-temporal-trajectory (docs/semantics.md):
// named presets in a fixed order, replaced by `scenarios:` in sandbox_settings.yaml.
#pragma once

#include <vector>

#include "config/settings.hpp"
#include "presets/preset.hpp"

namespace sbx::presets {

// normal, concurrency_spike, hostile_input, schema_drift, flaky_upstream.
std::vector<Preset> default_scenarios();
// The defaults plus high_latency, resource_strain and chaotic_failure (--all-scenarios).
std::vector<Preset> all_scenarios();
// The settings' `scenarios:` when written, else the defaults; `all` adds high_latency,
// resource_strain and chaotic_failure to either (those the list does not already name).
std::vector<Preset> configured_scenarios(const config::Settings &settings, bool all);
// `chosen` plus the three extra scenarios it does not already name.
std::vector<Preset> with_extra_scenarios(std::vector<Preset> chosen);
// The five temporal-trajectory stages: normal, high_latency, resource_strain, schema_drift,
// chaotic_failure.
std::vector<Preset> trajectory_stages();

}  // namespace sbx::presets
