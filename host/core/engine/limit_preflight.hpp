// Before a matrix: every limit of every scenario must hold as asked on the executor that
// will run it. An executor reports a limit it can only hold by something weaker (no cgroup
// without root: RLIMIT_AS instead of an OOM kill) in a probe; the command then stops with
// exit 2 naming the preset, the limit and what to do, unless the user allows downgrades.
#pragma once

#include <string>
#include <vector>

#include "config/settings.hpp"
#include "engine/plugin_set.hpp"
#include "presets/preset.hpp"

namespace sbx::engine {

struct LimitDowngrade {
    std::string preset;
    std::string executor;
    std::string limit;  // memory, pids, cpu, disk, ...
    std::string asked;  // what the preset asks for
    std::string got;    // what the executor would do instead
    std::string fix;    // what the user can do
};

// One probe run (`probe: true`: prepared, nothing executed) per scenario preset that sets a
// limit, on the executor that would run `workflow` under it. Executors that do not report
// `downgraded` (third-party, older) are taken at their word.
// `state_dir` is the data dir's state folder, as real runs get it.
std::vector<LimitDowngrade> probe_limit_downgrades(PluginSet &plugins,
                                                   const config::Workflow &workflow,
                                                   const std::vector<presets::Preset> &scenarios,
                                                   const std::string &state_dir);

// Throws InputError listing `found` unless it is empty or `allowed`; when allowed, logs
// each as a warning.
void refuse_limit_downgrades(const std::vector<LimitDowngrade> &found, bool allowed);

}  // namespace sbx::engine
