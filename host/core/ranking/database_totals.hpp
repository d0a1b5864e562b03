// The ranking totals of one metrics.db, computed by SQLite with GROUP BY: a database of
// 100,000 runs is never loaded into memory, only one row per scenario comes back.
#pragma once

#include <filesystem>

#include "ranking/source_totals.hpp"

namespace sbx::ranking {

// Σ cells.roi of the on-cells per preset name (the scenario); security_score is the cell
// metric of the newest on-cell of that scenario that recorded one.
ScenarioRois database_scenario_rois(const std::filesystem::path &path);
// Σ synergy.value of `metric` per scenario, over the subjects asked for.
SynergyTotals database_synergy_totals(const std::filesystem::path &path, const std::string &metric,
                                      SynergySubjects subjects);

}  // namespace sbx::ranking
