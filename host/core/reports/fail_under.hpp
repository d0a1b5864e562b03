// `run --fail-under`, the CI gate of run's three modes: the first cell (or simulation part)
// whose ROI is below the threshold, said in one line.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/cell_work.hpp"

namespace sbx::reports {

// Why the first cell whose ROI is below `fail_under` fails the gate; "" when none is, or
// when `fail_under` is negative (no gate).
std::string fail_under_failure(const std::vector<engine::CellSummary> &cells, double fail_under);

// The same over a simulation's report (record_simulation): its parts under each preset.
std::string fail_under_failure(const nlohmann::json &simulation_report, double fail_under);

}  // namespace sbx::reports
