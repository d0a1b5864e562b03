// The results of `run`: a table for people, one JSON object for programs, each cell a
// preset's runs with their failures, setup errors and the line that replays the first.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/cell_runner.hpp"

namespace sbx::reports {

// `commands` starts each cell's replay line (reports::command_prefix).
nlohmann::json cells_to_json(const std::vector<engine::CellSummary> &cells,
                             const std::string &commands);

// The table of `run` (a line per preset, the next ROI forecast), then what the collectors
// measured, the robustness presets' outcomes, the failures and the setup's errors.
std::string cell_table(const std::string &workflow, int runs_per_cell, const std::string &predictor,
                       const std::vector<engine::CellSummary> &cells, const std::string &commands);

}  // namespace sbx::reports
