// Printing the results of `run`: a table for people, one JSON object for programs.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/cell_runner.hpp"

namespace sbx::cli {

nlohmann::json cells_to_json(const std::vector<engine::CellSummary> &cells);
void print_cell_table(const std::string &workflow, int runs_per_cell, const std::string &predictor,
                      const std::vector<engine::CellSummary> &cells);

}  // namespace sbx::cli
