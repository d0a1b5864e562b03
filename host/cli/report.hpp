// Printing the results of `run`: a table for people, one JSON object for programs; and the
// tracker's module rankings the simulations and the autonomous loop end with.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/cell_runner.hpp"
#include "reports/module_rankings.hpp"

namespace sbx::cli {

// `commands` starts each cell's replay line (reports::command_prefix).
nlohmann::json cells_to_json(const std::vector<engine::CellSummary> &cells,
                             const std::string &commands);
void print_cell_table(const std::string &workflow, int runs_per_cell, const std::string &predictor,
                      const std::vector<engine::CellSummary> &cells, const std::string &commands);

using reports::rankings_json;

// "module rankings (<scope>)" and one line per module of rankings_json.
void print_rankings(const std::string &scope, const nlohmann::json &rankings);

}  // namespace sbx::cli
