// Judging a scenario matrix against run-scenarios --fail-on.
#include "scoring/scenario_gate.hpp"

#include <cstdio>

namespace sbx::scoring {

std::string gate_failure(const ScenarioGate &gate, const ScenarioReport &report) {
    // Never green, gate or not: a broken workflow, or a scenario errors left without a
    // verdict, is no result to pass on.
    if (report.status == WorkflowVerdict::broken) {
        return "status is 'broken': " + report.broken;
    }
    for (const auto &score : report.scenarios) {
        if (!score.inconclusive.empty()) {
            return "status is '" + std::string(verdict_name(report.status)) + "' and " +
                   score.name + " is inconclusive: " + score.inconclusive;
        }
    }
    if (gate.worst_below && !report.scenarios.empty()) {
        for (const auto &score : report.scenarios) {
            if (score.name == report.worst_scenario && score.roi_delta < *gate.worst_below) {
                char text[160];
                std::snprintf(text, sizeof(text),
                              "worst scenario %s has roi_delta %+.3f, below --fail-on "
                              "worst-below=%g",
                              score.name.c_str(), score.roi_delta, *gate.worst_below);
                return text;
            }
        }
    }
    if ((gate.on_fail && report.status == WorkflowVerdict::fail) ||
        (gate.on_weak && report.status != WorkflowVerdict::pass)) {
        return std::string("status is '") + verdict_name(report.status) +
               "' (--fail-on status=" + (gate.on_weak ? "weak" : "fail") + ")";
    }
    return {};
}

}  // namespace sbx::scoring
