// foresight_history.json: one entry per temporal-trajectory cycle, as the seeds'
// ForesightTracker keeps them:
//   {"format": "sandbox-runner/foresight_history/1",
//    "cycles": [{"workflow": "demo-kv", "session": 4, "stages": ["normal", ...],
//                "normal_roi": 1.0, "normal_degradation": 0.0, "normal_resilience": 1.0,
//                ..., "stability": 0.71}]}
// `stability` is the last stage's; every stage's own is in metrics.db (trajectory_stages).
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "scoring/trajectory.hpp"

namespace sbx::reports {

constexpr const char *kForesightFormat = "sandbox-runner/foresight_history/1";

// The cycle entry for these stage metrics.
nlohmann::json foresight_cycle(const std::string &workflow, int64_t session,
                               const std::vector<scoring::StageMetrics> &stages);

// Appends `cycle` to the file (created when missing; written atomically). A file that is
// not this format is an InputError naming it.
void append_foresight_cycle(const std::filesystem::path &path, const nlohmann::json &cycle);

}  // namespace sbx::reports
