// roi_history.json: the history the ranking commands and dashboards read, one file per
// data dir. docs/user-guide.md ("History files") documents the format:
//   {"format": "sandbox-runner/roi_history/1",
//    "tracker": {...the Tracker's state...},
//    "scenarios": {"<scenario>": {"roi": [...], "roi_delta": [...], "raroi": [...],
//                                  "metrics": {"<metric>": [...]}}}}
// Every list is oldest first; one entry per scenario matrix (or trajectory, or synergy
// run) that recorded the scenario. Synergy values are metrics named synergy_*.
#pragma once

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "presets/trend_signals.hpp"

namespace sbx::reports {

constexpr const char *kRoiHistoryFormat = "sandbox-runner/roi_history/1";

struct ScenarioSeries {
    std::vector<double> roi, roi_delta, raroi;
    std::map<std::string, std::vector<double>> metrics;
};

struct RoiHistory {
    nlohmann::json tracker = nlohmann::json::object();
    std::map<std::string, ScenarioSeries> scenarios;
};

// A missing file is an empty history. Anything else that is not this format is an
// InputError naming the file (with line:column for malformed JSON) and what to do.
RoiHistory load_roi_history(const std::filesystem::path &path);
nlohmann::json to_json(const RoiHistory &history);
// What adapt-presets reads of one scenario: its ROI, its synergy_roi values and its
// security_score values, oldest first (empty for a scenario the history lacks).
presets::ScenarioSeries adaptation_series(const RoiHistory &history, const std::string &scenario);

// Written atomically.
void save_roi_history(const std::filesystem::path &path, const RoiHistory &history);

}  // namespace sbx::reports
