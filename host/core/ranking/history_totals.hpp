// The ranking totals of one roi_history.json: every list is summed in memory (a history
// holds one entry per recorded matrix, small next to metrics.db).
#pragma once

#include <filesystem>

#include "ranking/source_totals.hpp"

namespace sbx::ranking {

// Σ `roi` per scenario; security_score is the last entry of its metrics series.
ScenarioRois history_scenario_rois(const std::filesystem::path &path);
// Σ of the `metric` series per scenario (scenarios without that series are left out).
SynergyTotals history_synergy_totals(const std::filesystem::path &path, const std::string &metric);

}  // namespace sbx::ranking
