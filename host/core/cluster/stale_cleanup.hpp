// purge-stale and check-resources: what crashed hosts left behind (containers, cgroups,
// workspaces, Slurm jobs, a node's task leftovers), swept or listed, and the plugins'
// cleanup counters kept in metrics.db. The CLI prints the result.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "config/settings.hpp"
#include "engine/stale_resources.hpp"
#include "plugins/registry.hpp"

namespace sbx::cluster {

struct StaleCleanup {
    engine::SweepReport report;          // what was removed (or is left), and sweeps that failed
    std::map<std::string, int> by_kind;  // how many items of each kind
    // The counters' totals in metrics.db, this sweep's added; {} when there is no database.
    std::map<std::string, double> counters;
};

// Sweeps the state folder (and, on a Slurm node, the node's own) and stale Slurm jobs;
// `dry_run` only lists. The counters go to <data dir>/metrics.db, created when new; a store
// that cannot be opened costs the counters (a warning naming `command`), never the sweep.
StaleCleanup clean_up_stale(const config::Settings &settings, const plugins::Registry &registry,
                            bool dry_run, const std::string &command);

// The JSON of `purge-stale --json` (what was "removed") and `check-resources --json` (what
// is "left", `dry_run`), with the counts by kind, the failed sweeps and the counters.
nlohmann::json to_json(const StaleCleanup &cleanup, bool dry_run);

}  // namespace sbx::cluster
