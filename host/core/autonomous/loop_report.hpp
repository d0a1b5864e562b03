// The autonomous loop's final report: why it stopped, what has not converged, the module
// rankings, the final metrics and the foresight trends. Only numbers the runs decide, never
// timings or session ids, so an interrupted and recovered loop reports exactly what an
// uninterrupted one with the same seed does.
#pragma once

#include <filesystem>

#include <nlohmann/json.hpp>

#include "autonomous/loop_decisions.hpp"
#include "autonomous/loop_state.hpp"
#include "scoring/tracker_settings.hpp"

namespace sbx::autonomous {

nlohmann::json autonomous_report(const AutonomousState &state, const LoopDecisions &decisions,
                                 const scoring::TrackerSettings &tracker_settings,
                                 const std::filesystem::path &foresight_history);

}  // namespace sbx::autonomous
