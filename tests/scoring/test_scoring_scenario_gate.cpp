// run-scenarios --fail-on: each condition read from its text (and a bad one refused with what
// to write), and whether a scored matrix passes the gate.
#include <gtest/gtest.h>

#include "scoring/scenario_gate.hpp"
#include "util/errors.hpp"

namespace sbx::scoring {
namespace {

std::string error_of(const std::string &spec) {
    ScenarioGate gate;
    try {
        parse_gate(spec, gate);
    } catch (const InputError &e) {
        return e.what();
    }
    ADD_FAILURE() << "expected an InputError for " << spec;
    return "";
}

TEST(ParseGate, EachConditionAddsToTheGate) {
    ScenarioGate gate;
    parse_gate("worst-below=-0.1", gate);
    parse_gate("status=weak", gate);
    ASSERT_TRUE(gate.worst_below.has_value());
    EXPECT_DOUBLE_EQ(*gate.worst_below, -0.1);
    EXPECT_TRUE(gate.on_weak);
    EXPECT_FALSE(gate.on_fail);
    parse_gate("status=fail", gate);
    EXPECT_TRUE(gate.on_fail);
}

TEST(ParseGate, RefusesAThresholdOutOfRangeAndAnUnknownCondition) {
    const std::string help =
        "write --fail-on worst-below=-0.1, --fail-on status=fail or --fail-on status=weak";
    EXPECT_EQ(error_of("worst-below=2"),
              "run-scenarios: --fail-on worst-below=2: the threshold must be an ROI delta "
              "between -1 and 1; " +
                  help);
    EXPECT_EQ(error_of("worst-below=x"),
              "run-scenarios: --fail-on worst-below=x: the threshold must be an ROI delta "
              "between -1 and 1; " +
                  help);
    EXPECT_EQ(error_of("status=pass"),
              "run-scenarios: --fail-on 'status=pass' is not understood; " + help);
    EXPECT_EQ(error_of("status"), "run-scenarios: --fail-on 'status' is not understood; " + help);
}

TEST(GateFailure, TheWorstScenarioBelowTheThresholdOrTheStatusAskedFor) {
    ScenarioReport report;
    report.scenarios.resize(2);
    report.scenarios[0].name = "hostile_input";
    report.scenarios[0].roi_delta = -0.25;
    report.scenarios[1].name = "normal";
    report.worst_scenario = "hostile_input";
    report.status = WorkflowVerdict::situationally_weak;
    EXPECT_EQ(gate_failure({}, report), "");
    ScenarioGate gate;
    gate.worst_below = -0.1;
    EXPECT_EQ(gate_failure(gate, report),
              "worst scenario hostile_input has roi_delta -0.250, below --fail-on "
              "worst-below=-0.1");
    gate = {};
    gate.on_fail = true;
    EXPECT_EQ(gate_failure(gate, report), "");
    gate.on_weak = true;
    EXPECT_EQ(gate_failure(gate, report), "status is 'situationally weak' (--fail-on status=weak)");
}

TEST(GateFailure, ABrokenWorkflowNeverPasses) {
    ScenarioReport report;
    report.status = WorkflowVerdict::broken;
    report.broken = "step build failed with no fault";
    EXPECT_EQ(gate_failure({}, report), "status is 'broken': step build failed with no fault");
}

}  // namespace
}  // namespace sbx::scoring
