// A run in a container of its own: create, start, wait (kill at the deadline), inspect,
// read the logs, remove. The reference path, and the fallback when the pool is full.
#pragma once

#include <nlohmann/json.hpp>

#include "container_plan.hpp"
#include "container_start.hpp"
#include "run_spec.hpp"

namespace sbx::docker {

// `spec.workspace` is set (the executor made or checked it). Throws sbx::Error with
// SBX_CANCELLED when the host cancels; an engine failure is an XX result.
nlohmann::json run_once(StartContext &context, const RunSpec &spec, const Owner &owner);

}  // namespace sbx::docker
