// The ranking totals of one metrics.db, computed by SQLite with GROUP BY: a database of
// 100,000 runs is never loaded into memory, only one row per scenario comes back.
#pragma once

#include <filesystem>

#include "ranking/source_totals.hpp"

namespace sbx::ranking {

// Σ cells.roi of the on-cells per workflow and preset name (the scenario); security_score is the
// cell metric of the newest on-cell of that scenario that recorded one. Every on-cell counts,
// whichever command recorded it: `run` cells, and the part cells of a workflow or section
// simulation beside its combined cell. roi_history.json keeps one entry per scenario
// matrix, trajectory or combined run, so after `run` or a simulation the two files of a
// data dir give different totals; after run-scenarios alone they agree.
ScenarioRois database_scenario_rois(const std::filesystem::path &path);
// Σ synergy.value of `metric` per scenario, over the subjects asked for.
SynergyTotals database_synergy_totals(const std::filesystem::path &path, const std::string &metric,
                                      SynergySubjects subjects);

}  // namespace sbx::ranking
