// run-scenarios --fail-on: whether a scored scenario matrix passes its CI gate, and why
// not. A broken workflow or an inconclusive scenario never passes, gate or not.
#pragma once

#include <optional>
#include <string>

#include "scoring/scenario_scores.hpp"

namespace sbx::scoring {

struct ScenarioGate {
    std::optional<double> worst_below;  // fail when the worst roi_delta is below this
    bool on_fail = false;               // fail when the status is "fail"
    bool on_weak = false;               // fail unless the status is "pass"
};

// Adds one `--fail-on` condition to `gate`: "worst-below=X" (an ROI delta from -1 to 1),
// "status=fail" or "status=weak". Throws InputError saying what to write instead.
void parse_gate(const std::string &spec, ScenarioGate &gate);

// Why `report` fails `gate`, in one line; empty when it passes.
std::string gate_failure(const ScenarioGate &gate, const ScenarioReport &report);

}  // namespace sbx::scoring
