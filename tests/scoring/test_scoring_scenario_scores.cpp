// Scenario scores (docs/semantics.md "Scenario scores"): deltas, RAROI per cell, the failure rule,
// the worst scenario, the workflow status, hardening tips and the printed delta line.
#include <gtest/gtest.h>

#include "scoring/scenario_scores.hpp"
#include "scoring/scenario_tips.hpp"
#include "util/errors.hpp"

namespace sbx::scoring {
namespace {

// Built-in severities, impact "standard" (0.5).
RaroiContext standard() {
    return {};
}

ScenarioInput scenario(const std::string &name, double roi_on, double roi_off,
                       std::map<std::string, double> on_metrics = {},
                       std::map<std::string, double> off_metrics = {}) {
    return {name, {roi_on, std::move(on_metrics)}, {roi_off, std::move(off_metrics)}, "", "", ""};
}

TEST(ScenarioScores, TwoFailingScenariosFailTheWorkflow) {
    // Deltas +0.5, -0.25, -0.1, +0.05: two fail, so "fail"; the worst is hostile_input.
    const ScenarioReport report =
        score_scenarios({scenario("normal", 1.0, 0.5), scenario("hostile_input", 0.75, 1.0),
                         scenario("schema_drift", 0.8, 0.9), scenario("flaky_upstream", 0.6, 0.55)},
                        standard());
    ASSERT_EQ(report.scenarios.size(), 4u);
    EXPECT_EQ(report.scenarios[0].name, "normal");
    EXPECT_DOUBLE_EQ(report.scenarios[0].roi_delta, 0.5);
    EXPECT_DOUBLE_EQ(report.scenarios[1].roi_delta, -0.25);
    EXPECT_NEAR(report.scenarios[2].roi_delta, -0.1, 1e-12);
    EXPECT_NEAR(report.scenarios[3].roi_delta, 0.05, 1e-12);
    EXPECT_EQ(report.worst_scenario, "hostile_input");
    EXPECT_STREQ(verdict_name(report.status), "fail");

    EXPECT_FALSE(report.scenarios[0].failed);
    EXPECT_TRUE(report.scenarios[0].failing_reasons.empty());
    EXPECT_EQ(report.scenarios[0].tip, "");
    EXPECT_TRUE(report.scenarios[1].failed);
    EXPECT_EQ(report.scenarios[1].failing_reasons,
              std::vector<std::string>{"roi_delta -0.250 < 0"});
    EXPECT_EQ(report.scenarios[1].tip, "sanitize inputs");
    EXPECT_EQ(report.scenarios[2].failing_reasons,
              std::vector<std::string>{"roi_delta -0.100 < 0"});
    EXPECT_EQ(report.tips, (std::vector<std::string>{"hostile_input: sanitize inputs",
                                                     "schema_drift: tighten schema validation"}));
}

TEST(ScenarioScores, RaroiOfEachCell) {
    // A cell's failure_rate is 1 - roi, so with impact 0.5: raroi = r * (1 - (1 - r) * 0.5).
    // normal: on 1 -> 1; off 0.5 -> 0.5 * 0.75 = 0.375; delta 0.625.
    // hostile_input: on 0.75 -> 0.75 * 0.875 = 0.65625; off 1 -> 1; delta -0.34375.
    const ScenarioReport report = score_scenarios(
        {scenario("normal", 1.0, 0.5), scenario("hostile_input", 0.75, 1.0)}, standard());
    EXPECT_DOUBLE_EQ(report.scenarios[0].raroi_on, 1);
    EXPECT_DOUBLE_EQ(report.scenarios[0].raroi_off, 0.375);
    EXPECT_DOUBLE_EQ(report.scenarios[0].raroi_delta, 0.625);
    EXPECT_DOUBLE_EQ(report.scenarios[1].raroi_on, 0.65625);
    EXPECT_DOUBLE_EQ(report.scenarios[1].raroi_off, 1);
    EXPECT_DOUBLE_EQ(report.scenarios[1].raroi_delta, -0.34375);
}

TEST(ScenarioScores, CellRaroiUsesFailureAndSafetyMetrics) {
    RaroiContext critical;
    critical.impact = "critical";
    // roi 1: no rollback. hostile 1 + misuse 2 -> penalty 1/4; safety (0.8 + 0.6) / 2 = 0.7.
    EXPECT_NEAR(cell_raroi({1.0,
                            {{"hostile_failures", 1},
                             {"misuse_failures", 2},
                             {"security_score", 0.8},
                             {"safety_rating", 0.6}}},
                           critical),
                0.175, 1e-12);
    // A fractional count (an average over runs) is at least one failure: penalty 1/2.
    EXPECT_DOUBLE_EQ(cell_raroi({1.0, {{"hostile_failures", 0.4}}}, critical), 0.5);
    // roi 0.5 with impact 0.9: 0.5 * (1 - 0.5 * 0.9) = 0.275.
    EXPECT_NEAR(cell_raroi({0.5, {}}, critical), 0.275, 1e-12);
}

TEST(ScenarioScores, OneFailingOfFiveIsSituationallyWeak) {
    const ScenarioReport report =
        score_scenarios({scenario("normal", 1, 1), scenario("concurrency_spike", 0.5, 0.75),
                         scenario("hostile_input", 1, 1), scenario("schema_drift", 1, 0.5),
                         scenario("flaky_upstream", 0.75, 0.75)},
                        standard());
    EXPECT_STREQ(verdict_name(report.status), "situationally weak");
    EXPECT_EQ(report.worst_scenario, "concurrency_spike");
    EXPECT_EQ(report.tips, std::vector<std::string>{"concurrency_spike: add locking or queueing"});
}

TEST(ScenarioScores, ASingleScenario) {
    EXPECT_EQ(score_scenarios({scenario("normal", 0.5, 0.75)}, standard()).status,
              WorkflowVerdict::fail);
    EXPECT_EQ(score_scenarios({scenario("normal", 0.75, 0.75)}, standard()).status,
              WorkflowVerdict::pass);
}

TEST(ScenarioScores, NoScenarios) {
    const ScenarioReport report = score_scenarios({}, standard());
    EXPECT_TRUE(report.scenarios.empty());
    EXPECT_EQ(report.worst_scenario, "");
    EXPECT_STREQ(verdict_name(report.status), "pass");
    EXPECT_TRUE(report.tips.empty());
}

TEST(ScenarioScores, NotApplicableScenariosAreNeitherPassNorFail) {
    auto hostile = scenario("hostile_input", 0.0, 1.0, {{"hostile_failures", 1}});
    hostile.not_applicable = "no input slot";
    auto drift = scenario("schema_drift", 1.0, 1.0);
    drift.not_applicable = "no json slot";
    const ScenarioReport report = score_scenarios(
        {scenario("normal", 1, 1), hostile, scenario("concurrency_spike", 0.5, 1.0), drift},
        standard());
    EXPECT_EQ(report.not_applicable, (std::vector<std::string>{"hostile_input", "schema_drift"}));
    // Only concurrency_spike fails, among two applicable scenarios.
    EXPECT_STREQ(verdict_name(report.status), "situationally weak");
    // hostile_input's delta is the lowest, but it proves nothing.
    EXPECT_EQ(report.worst_scenario, "concurrency_spike");
    EXPECT_FALSE(report.scenarios[1].failed);
    EXPECT_TRUE(report.scenarios[1].failing_reasons.empty());
    EXPECT_EQ(report.scenarios[1].not_applicable, "no input slot");
    EXPECT_EQ(report.tips,
              (std::vector<std::string>{"concurrency_spike: add locking or queueing"}));
}

TEST(ScenarioScores, NothingApplicableIsNotAPass) {
    auto hostile = scenario("hostile_input", 1.0, 1.0);
    hostile.not_applicable = "no input slot";
    const ScenarioReport report = score_scenarios({hostile}, standard());
    EXPECT_STREQ(verdict_name(report.status), "not applicable");
    EXPECT_EQ(report.worst_scenario, "");
}

TEST(ScenarioScores, AllFailingIsFail) {
    EXPECT_EQ(score_scenarios({scenario("a", 0, 1), scenario("b", 0, 1)}, standard()).status,
              WorkflowVerdict::fail);
}

TEST(ScenarioScores, AFailureMetricFailsAScenarioWithoutLoss) {
    const ScenarioReport report = score_scenarios(
        {scenario("normal", 1, 1), scenario("hostile_input", 1, 1, {{"hostile_failures", 1}})},
        standard());
    const ScenarioScore &hostile = report.scenarios[1];
    EXPECT_DOUBLE_EQ(hostile.roi_delta, 0);
    EXPECT_TRUE(hostile.failed);
    EXPECT_EQ(hostile.failing_reasons, std::vector<std::string>{"hostile_failures 1 > 0"});
    EXPECT_STREQ(verdict_name(report.status), "situationally weak");
    // The penalty halves the on-cell's RAROI: 1 * 1/(1 + 1) = 0.5 against 1.
    EXPECT_DOUBLE_EQ(hostile.raroi_delta, -0.5);
}

TEST(ScenarioScores, BreachMetricsAndReasonOrder) {
    const ScenarioReport report = score_scenarios(
        {scenario("high_latency", 0.5, 0.75,
                  {{"latency_breach", 2.5}, {"breach_count", 4}, {"error_rate", 0}})},
        standard());
    EXPECT_EQ(report.scenarios[0].failing_reasons,
              (std::vector<std::string>{"roi_delta -0.250 < 0", "latency_breach 2.5 > 0"}));
    EXPECT_EQ(report.scenarios[0].tip, "add timeouts and cache slow calls");
}

TEST(ScenarioScores, OnlyTheOnCellsMetricsCanFailAScenario) {
    const ScenarioReport report =
        score_scenarios({scenario("normal", 1, 1, {}, {{"upstream_errors", 3}})}, standard());
    EXPECT_FALSE(report.scenarios[0].failed);
    EXPECT_STREQ(verdict_name(report.status), "pass");
}

TEST(ScenarioScores, FailureMetricNames) {
    EXPECT_TRUE(is_failure_metric("hostile_failures"));
    EXPECT_TRUE(is_failure_metric("failure_rate"));
    EXPECT_TRUE(is_failure_metric("error_count"));
    EXPECT_TRUE(is_failure_metric("api_errors"));
    EXPECT_TRUE(is_failure_metric("latency_breach"));
    EXPECT_TRUE(is_failure_metric("_breach"));
    EXPECT_FALSE(is_failure_metric("breach_latency"));
    EXPECT_FALSE(is_failure_metric("breach"));
    EXPECT_FALSE(is_failure_metric("latency_ms"));
}

TEST(ScenarioScores, TiesGoToTheFirstScenario) {
    const ScenarioReport report =
        score_scenarios({scenario("normal", 1, 1), scenario("schema_drift", 0.5, 0.75),
                         scenario("hostile_input", 0.25, 0.5)},
                        standard());
    EXPECT_EQ(report.worst_scenario, "schema_drift");
    EXPECT_STREQ(verdict_name(report.status), "fail");
}

TEST(ScenarioScores, TargetAndNormalDeltas) {
    const ScenarioReport report = score_scenarios(
        {scenario("normal", 1, 1, {{"latency_ms", 100}, {"throughput", 50}}, {{"latency_ms", 80}}),
         scenario("hostile_input", 1, 1, {{"latency_ms", 250}, {"hostile_failures", 0}},
                  {{"latency_ms", 90}, {"cpu", 1}})},
        standard());
    using Deltas = std::map<std::string, double>;
    EXPECT_EQ(report.scenarios[0].target_delta, (Deltas{{"latency_ms", 20}}));
    EXPECT_EQ(report.scenarios[0].metrics_delta, (Deltas{{"latency_ms", 0}, {"throughput", 0}}));
    EXPECT_EQ(report.scenarios[1].target_delta, (Deltas{{"latency_ms", 160}}));
    EXPECT_EQ(report.scenarios[1].metrics_delta, (Deltas{{"latency_ms", 150}}));
    EXPECT_FALSE(report.scenarios[1].failed);  // hostile_failures 0 is not > 0
}

TEST(ScenarioScores, NoNormalScenarioMeansNoMetricsDelta) {
    const ScenarioReport report =
        score_scenarios({scenario("hostile_input", 1, 1, {{"latency_ms", 250}})}, standard());
    EXPECT_TRUE(report.scenarios[0].metrics_delta.empty());
}

TEST(ScenarioScores, UnknownImpactTypeIsAnInputError) {
    RaroiContext context;
    context.impact = "weird";
    EXPECT_THROW(score_scenarios({scenario("normal", 1, 1)}, context), InputError);
}

TEST(ScenarioTips, EveryKnownScenarioAndAGenericOne) {
    EXPECT_EQ(hardening_tip("concurrency_spike"), "add locking or queueing");
    EXPECT_EQ(hardening_tip("schema_drift"), "tighten schema validation");
    EXPECT_EQ(hardening_tip("hostile_input"), "sanitize inputs");
    EXPECT_EQ(hardening_tip("flaky_upstream"), "add retries or fallback logic");
    EXPECT_EQ(hardening_tip("user_misuse"),
              "validate arguments and reject misuse with a clear error");
    EXPECT_EQ(hardening_tip("high_latency"), "add timeouts and cache slow calls");
    EXPECT_EQ(hardening_tip("resource_strain"),
              "bound memory, CPU and disk use and degrade gracefully");
    EXPECT_EQ(hardening_tip("chaotic_failure"),
              "check credentials and payloads and recover from bad ones");
    EXPECT_EQ(hardening_tip("normal"),
              "fix the failures that happen without any injected fault first");
    EXPECT_EQ(hardening_tip("malicious_data"), hardening_tip("hostile_input"));
    EXPECT_EQ(hardening_tip("schema_mismatch"), hardening_tip("schema_drift"));
    EXPECT_EQ(hardening_tip("upstream_failure"), hardening_tip("flaky_upstream"));
    EXPECT_EQ(hardening_tip("high_latency_api"), hardening_tip("high_latency"));
    EXPECT_EQ(hardening_tip("my_scenario"),
              "inspect the failing runs and handle the condition this scenario injects");
}

TEST(FormatDeltaLine, SignAlwaysShownThreeDecimals) {
    EXPECT_EQ(format_delta_line("hostile_input", -0.25, true), "hostile_input: -0.250 <== WORST");
    EXPECT_EQ(format_delta_line("normal", 0.5, false), "normal: +0.500");
    EXPECT_EQ(format_delta_line("normal", 0, false), "normal: +0.000");
    EXPECT_EQ(format_delta_line("normal", -0.0, false), "normal: +0.000");
    EXPECT_EQ(format_delta_line("schema_drift", 1.23456, false), "schema_drift: +1.235");
}

TEST(ScenarioScores, AnInconclusiveScenarioIsNeitherFailedNorWorstAndTheStatusIsNotGreen) {
    auto drifted = scenario("high_latency", 0.0, 0.0);
    drifted.inconclusive = "injector 'network' could not prepare (errors in 1 of 1 on-runs)";
    const auto report = score_scenarios({scenario("normal", 1.0, 1.0), drifted}, standard());
    EXPECT_EQ(report.status, WorkflowVerdict::inconclusive);
    EXPECT_STREQ(verdict_name(report.status), "inconclusive");
    EXPECT_TRUE(is_unfinished_verdict(report.status));
    EXPECT_FALSE(report.scenarios[1].failed);
    EXPECT_EQ(report.scenarios[1].inconclusive, drifted.inconclusive);
    EXPECT_EQ(report.inconclusive, std::vector<std::string>{"high_latency"});
    EXPECT_EQ(report.worst_scenario, "normal");
    EXPECT_TRUE(report.tips.empty());
}

TEST(ScenarioScores, AFailureOutweighsAnInconclusiveScenarioInTheStatus) {
    auto shaky = scenario("high_latency", 0.0, 0.0);
    shaky.inconclusive = "errors";
    const auto report = score_scenarios(
        {scenario("normal", 1.0, 1.0), scenario("hostile_input", 0.5, 1.0), shaky}, standard());
    EXPECT_EQ(report.status, WorkflowVerdict::situationally_weak);
    EXPECT_EQ(report.inconclusive, std::vector<std::string>{"high_latency"});
    EXPECT_FALSE(is_unfinished_verdict(report.status));
}

TEST(ScenarioScores, AWorkflowWhoseNormalRunsAllFailIsBrokenAndBlamesNoFault) {
    auto normal = scenario("normal", 0.0, 1.0);
    normal.broken = "every run of normal failed (1 of 1): step 'fetch': exit code 7";
    const auto report = score_scenarios(
        {normal, scenario("hostile_input", 0.0, 1.0), scenario("flaky_upstream", 0.0, 1.0)},
        standard());
    EXPECT_EQ(report.status, WorkflowVerdict::broken);
    EXPECT_STREQ(verdict_name(report.status), "broken");
    EXPECT_TRUE(is_unfinished_verdict(report.status));
    EXPECT_EQ(report.broken, normal.broken);
    EXPECT_TRUE(report.tips.empty()) << "no fault or input is to blame";
    EXPECT_EQ(report.worst_scenario, "");
    for (const auto &score : report.scenarios) {
        EXPECT_EQ(score.tip, "") << score.name;
        EXPECT_TRUE(score.failed) << score.name << ": the rows stay as measured";
    }
}

}  // namespace
}  // namespace sbx::scoring
