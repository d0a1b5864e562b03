// What simulate-temporal-trajectory leaves behind: the stages' metrics (degradation,
// resilience, stability) in metrics.db (trajectory_stages), a cycle in
// foresight_history.json for the autonomous loop's trends, and each stage's series in
// roi_history.json.
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/cell_runner.hpp"
#include "scoring/trajectory.hpp"
#include "store/store.hpp"

namespace sbx::reports {

// The stages' metrics from their cells (one per stage, in stage order), recorded.
std::vector<scoring::StageMetrics> record_trajectory_run(
    store::Store &store, int64_t session, const std::filesystem::path &data_dir,
    const std::string &workflow, const std::vector<engine::CellSummary> &cells);

// ROI, degradation and resilience against the stage's index as an SVG line chart (--plot).
std::string trajectory_chart(const std::string &workflow,
                             const std::vector<scoring::StageMetrics> &stages);

// Each stage's roi, degradation, resilience and stability: the "stages" of
// `simulate-temporal-trajectory --json`.
nlohmann::json trajectory_stages_json(const std::vector<scoring::StageMetrics> &stages);

// The stages as a table, under "temporal trajectory of WORKFLOW".
std::string trajectory_text(const std::string &workflow,
                            const std::vector<scoring::StageMetrics> &stages);

}  // namespace sbx::reports
