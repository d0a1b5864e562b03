// The rankings as the rank-* commands give them: a JSON list, or one text line per row
// (a heading per workflow when several are ranked apart), both best first.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ranking/ranking.hpp"

namespace sbx::ranking {

// One object per row: "workflow" first when ranked per workflow (null when not recorded),
// then scenario, roi, cells, mean_roi and, when recorded, security_score.
nlohmann::ordered_json scenario_ranking_json(const std::vector<ScenarioRank> &rows,
                                             WorkflowGrouping grouping);
// "SCENARIO ROI=… (sum of N cells, mean …)" per row, with three decimals; rows of several
// workflows indented under a heading each.
std::string scenario_ranking_text(const std::vector<ScenarioRank> &rows, WorkflowGrouping grouping);

// One {"scenario": …, METRIC: value} object per row.
nlohmann::ordered_json synergy_ranking_json(const SynergyRanking &ranking);
// "SCENARIO METRIC=value" per row, with three decimals.
std::string synergy_ranking_text(const SynergyRanking &ranking);

}  // namespace sbx::ranking
