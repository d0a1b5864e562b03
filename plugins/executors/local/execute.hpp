// One run from spec to result: the orchestrator that ties workspace, cgroups, rlimits,
// spawn, supervision and classification together (nsjail's contain.cc, for one command).
#pragma once

#include <nlohmann/json.hpp>

#include "config.hpp"
#include "run_spec.hpp"

namespace sbx::local {

// Runs `spec` to completion and returns the result object. Throws sbx::Error with
// SBX_CANCELLED when the host cancelled the run, SBX_ERROR when the executor itself failed
// (no workspace, no process could be created). Every resource is released on every path.
nlohmann::json execute(const support::RunSpec &spec, const ExecutorConfig &config);

}  // namespace sbx::local
