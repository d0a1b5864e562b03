// purge-stale / check-resources for the docker executor: containers carrying the pool
// label whose host process is gone (pid dead, or reused: another start time), found by
// label and through the active ids file, plus their private folders. Containers without
// the label, and those of live hosts, are never touched.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "cleanup_tally.hpp"
#include "config.hpp"
#include "support/docker_engine/engine_api.hpp"

namespace sbx::docker {

// request {state_dir, dry_run} -> {removed: ["container NAME (ID12) of dead host PID", ...]}.
// Unless dry_run, counts the containers removed into `tally` (stale_containers_removed) and
// the sweep's length when it removed any (cleanup_duration_seconds_reaper).
nlohmann::json sweep_stale(EngineApi &api, const ExecutorConfig &config,
                           const nlohmann::json &request, CleanupTally &tally);

}  // namespace sbx::docker
