// What crashed hosts leave behind, found and removed: everything every injector and
// executor plugin recorded or labelled (its sweep()), and workspaces of dead hosts. The engine of
// `purge-stale` (remove) and `check-resources` (list only).
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "config/settings.hpp"
#include "plugins/registry.hpp"

namespace sbx::engine {

struct Leftover {
    std::string kind;  // the injector or executor id that owns it, "service" or "workspace"
    std::string what;  // e.g. "network namespace sbx-4242-1", "burner pid 77"
};

struct SweepReport {
    std::vector<Leftover> items;
    std::vector<std::string> errors;  // a plugin that failed to sweep: named, not fatal
    // The plugins' `counters` (stale_containers_removed, ...), merged; always empty for a
    // dry run, which removes nothing.
    std::map<std::string, double> counters;
};

// Sweeps each of `state_dirs` with every injector and executor plugin in `registry`
// (configured with its `plugins:` section when the settings have one) and its services,
// and the stale workspaces once. `dry_run` lists without removing.
SweepReport sweep_stale(const plugins::Registry &registry, const config::Settings &settings,
                        const std::vector<std::filesystem::path> &state_dirs, bool dry_run);

}  // namespace sbx::engine
