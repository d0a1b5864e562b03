// Whether a scenario's faults can reach a workflow's target at all. A scenario whose only
// faults have no way in — hostile inputs for a workflow whose steps take no input, upstream
// faults for one that declares no `upstreams:` — is "not applicable": it proves nothing,
// so it is never scored as a pass.
#pragma once

#include <string>

#include "config/settings.hpp"
#include "presets/preset.hpp"

namespace sbx::engine {

// "" when at least one of the preset's faults reaches the target, or when the preset has
// no fault this test knows to be gated (resource limits, network shaping, concurrency and
// unknown keys always count as reaching). Otherwise why not, for reports: "no step passes
// an input slot to its target (through run, stdin, env or files), so the hostile inputs
// have no way in".
std::string not_applicable_reason(const config::Workflow &workflow, const presets::Preset &preset,
                                  const config::Settings &settings);

}  // namespace sbx::engine
