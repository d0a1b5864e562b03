// Judging a scenario matrix against run-scenarios --fail-on.
#include "scoring/scenario_gate.hpp"

#include <cstdio>

#include "util/errors.hpp"
#include "util/number_parse.hpp"

namespace sbx::scoring {

namespace {

constexpr const char *kGateHelp =
    "write --fail-on worst-below=-0.1, --fail-on status=fail or --fail-on status=weak";

}  // namespace

void parse_gate(const std::string &spec, ScenarioGate &gate) {
    const auto eq = spec.find('=');
    const std::string key = spec.substr(0, eq);
    const std::string value = eq == std::string::npos ? "" : spec.substr(eq + 1);
    if (key == "worst-below") {
        const auto threshold = util::parse_double(value);
        if (!threshold || !(*threshold >= -1 && *threshold <= 1)) {
            throw InputError("run-scenarios: --fail-on " + spec +
                             ": the threshold must be an ROI delta between -1 and 1; " + kGateHelp);
        }
        gate.worst_below = *threshold;
    } else if (key == "status" && (value == "fail" || value == "weak")) {
        (value == "fail" ? gate.on_fail : gate.on_weak) = true;
    } else {
        throw InputError("run-scenarios: --fail-on '" + spec + "' is not understood; " + kGateHelp);
    }
}

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
