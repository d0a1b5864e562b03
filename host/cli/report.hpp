// Printing the results of `run` (reports/run_report) and the tracker's module rankings the
// simulations and the autonomous loop end with (reports/module_rankings).
#pragma once

#include <cstdio>

#include "reports/module_rankings.hpp"
#include "reports/run_report.hpp"

namespace sbx::cli {

using reports::cells_to_json;

inline void print_cell_table(const std::string &workflow, int runs_per_cell,
                             const std::string &predictor,
                             const std::vector<engine::CellSummary> &cells,
                             const std::string &commands) {
    std::fputs(reports::cell_table(workflow, runs_per_cell, predictor, cells, commands).c_str(),
               stdout);
}

inline void print_rankings(const std::string &scope, const nlohmann::json &rankings) {
    std::fputs(reports::rankings_text(scope, rankings).c_str(), stdout);
}

}  // namespace sbx::cli
