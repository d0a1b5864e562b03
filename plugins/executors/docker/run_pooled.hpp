// A run as an exec in a warm container of the pool: no create/start/remove per run. A run
// that timed out, was OOM-killed or hit an engine error takes its container out of the pool.
#pragma once

#include <nlohmann/json.hpp>

#include "container_pool.hpp"
#include "run_spec.hpp"

namespace sbx::docker {

// Falls back to run_once when the pool is full. Throws sbx::Error(SBX_CANCELLED) when the
// host cancels.
nlohmann::json run_pooled(StartContext &context, ContainerPool &pool, const RunSpec &spec,
                          const Owner &owner);

}  // namespace sbx::docker
