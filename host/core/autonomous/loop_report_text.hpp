// What run-autonomous and run-complete show as text: a few lines after each iteration and
// the final report, read from the loop's records and its report JSON (autonomous_report).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "autonomous/loop_decisions.hpp"
#include "autonomous/loop_state.hpp"

namespace sbx::autonomous {

// "iteration I/N: P presets, M modules, S s", the adaptation, each module's ROI, entropy
// and forecast, the synergy and which modules have converged.
std::string iteration_text(const IterationRecord &record, int max_iterations,
                           const LoopDecisions &decisions, double seconds);

// The final report: why the loop stopped, what has not converged, the module rankings,
// the final metrics and the foresight trends.
std::string autonomous_report_text(const nlohmann::json &report);

}  // namespace sbx::autonomous
