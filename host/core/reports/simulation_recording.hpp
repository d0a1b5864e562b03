// What a workflow or section simulation leaves behind (docs/semantics.md "Synergy"): each
// part's ROI change fed to the tracker and appended to roi_history.json, each synergy
// recorded in metrics.db and forecast, the converged parts flagged in <subject>.flags.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/forecaster.hpp"
#include "engine/simulation.hpp"
#include "scoring/tracker_settings.hpp"
#include "store/store.hpp"

namespace sbx::reports {

// Records what `simulation` found and returns the report: {"presets": [{"preset", "parts":
// [{"name", "roi", "runs", "metrics"}], "combined", "synergy"}], "rankings": the tracker's
// view across every recorded cycle}.
nlohmann::json record_simulation(store::Store &store, int64_t session,
                                 const std::filesystem::path &data_dir,
                                 const engine::Simulation &simulation,
                                 const std::vector<engine::PresetOutcome> &outcomes,
                                 const scoring::TrackerSettings &settings,
                                 engine::Forecaster &forecaster);

// The report as text: each preset's parts (with their metrics when `details`) and the
// combined workflow with its synergy (each synergy metric when `details`). The rankings
// are not in it.
std::string simulation_text(const engine::Simulation &simulation, const nlohmann::json &report,
                            bool details);

}  // namespace sbx::reports
