// RAROI factor by factor (docs/semantics.md "RAROI"): every branch of the rollback maximum,
// both clips, the instability window, safety and penalty, and unknown impact types.
#include <gtest/gtest.h>

#include <cmath>

#include "scoring/raroi.hpp"
#include "util/errors.hpp"

namespace sbx::scoring {
namespace {

// The built-in severities (standard 0.5, critical 0.9, experimental 0.2, low 0.1).
ImpactSeverity built_in() {
    return {};
}

TEST(Raroi, WithoutRiskItIsTheRoi) {
    RaroiInputs inputs;
    inputs.roi = 0.8;
    const RaroiBreakdown result = raroi(inputs, built_in());
    EXPECT_DOUBLE_EQ(result.raroi, 0.8);  // 0.8 * (1 - 0*0.5) * (1 - 0) * clip(1*1)
    EXPECT_DOUBLE_EQ(result.rollback_p, 0);
    EXPECT_DOUBLE_EQ(result.impact, 0.5);  // "standard"
    EXPECT_DOUBLE_EQ(result.instability, 0);
    EXPECT_DOUBLE_EQ(result.safety, 1);
    EXPECT_DOUBLE_EQ(result.penalty, 1);
}

TEST(Raroi, RollbackFromErrorsPerMinute) {
    RaroiInputs inputs;
    inputs.roi = 1;
    inputs.errors_per_minute = 4;  // 0.4, beats flakiness 1/5 = 0.2 and failure_rate 0.1
    inputs.flakiness = 1;
    inputs.failure_rate = 0.1;
    const RaroiBreakdown result = raroi(inputs, built_in());
    EXPECT_NEAR(result.rollback_p, 0.4, 1e-12);
    EXPECT_NEAR(result.raroi, 0.8, 1e-12);  // 1 * (1 - 0.4*0.5)
}

TEST(Raroi, RollbackFromFlakiness) {
    RaroiInputs inputs;
    inputs.roi = 0.5;
    inputs.flakiness = 3;  // 0.6, beats errors 2/10 = 0.2 and failure_rate 0.3
    inputs.errors_per_minute = 2;
    inputs.failure_rate = 0.3;
    inputs.impact = "critical";
    const RaroiBreakdown result = raroi(inputs, built_in());
    EXPECT_NEAR(result.rollback_p, 0.6, 1e-12);
    EXPECT_NEAR(result.raroi, 0.23, 1e-12);  // 0.5 * (1 - 0.6*0.9) = 0.5 * 0.46
}

TEST(Raroi, RollbackFromFailureRate) {
    RaroiInputs inputs;
    inputs.roi = 1;
    inputs.failure_rate = 0.7;  // beats errors 1/10
    inputs.errors_per_minute = 1;
    inputs.impact = "experimental";
    const RaroiBreakdown result = raroi(inputs, built_in());
    EXPECT_NEAR(result.rollback_p, 0.7, 1e-12);
    EXPECT_NEAR(result.raroi, 0.86, 1e-12);  // 1 * (1 - 0.7*0.2)
}

TEST(Raroi, RollbackFromInstability) {
    RaroiInputs inputs;
    inputs.roi = 1;
    inputs.recent_rois = {0.2, 0.4};  // mean 0.3, deviations ±0.1 -> population σ 0.1
    const RaroiBreakdown result = raroi(inputs, built_in());
    EXPECT_NEAR(result.instability, 0.1, 1e-12);
    EXPECT_NEAR(result.rollback_p, 0.1, 1e-12);
    EXPECT_NEAR(result.raroi, 0.855, 1e-12);  // 1 * (1 - 0.1*0.5) * (1 - 0.1) = 0.95 * 0.9
}

TEST(Raroi, RollbackIsClippedToOne) {
    RaroiInputs inputs;
    inputs.roi = 0.6;
    inputs.errors_per_minute = 25;  // 2.5 -> 1
    inputs.impact = "low";
    const RaroiBreakdown result = raroi(inputs, built_in());
    EXPECT_DOUBLE_EQ(result.rollback_p, 1);
    EXPECT_NEAR(result.raroi, 0.54, 1e-12);  // 0.6 * (1 - 1*0.1)
}

TEST(Raroi, NegativeRatesGiveNoRollback) {
    RaroiInputs inputs;
    inputs.roi = 0.5;
    inputs.errors_per_minute = -10;  // -1; the maximum with instability 0 is 0, clip keeps it
    inputs.flakiness = -5;
    inputs.failure_rate = -0.5;
    const RaroiBreakdown result = raroi(inputs, built_in());
    EXPECT_DOUBLE_EQ(result.rollback_p, 0);
    EXPECT_DOUBLE_EQ(result.raroi, 0.5);
}

TEST(Raroi, InstabilityUsesTheLastFiveRoisOnly) {
    RaroiInputs inputs;
    inputs.roi = 0.5;
    inputs.recent_rois = {100, 0.5, 0.5, 0.5, 0.5, 0.5};  // the 100 is out of the window
    EXPECT_DOUBLE_EQ(raroi(inputs, built_in()).instability, 0);
    EXPECT_DOUBLE_EQ(raroi(inputs, built_in()).raroi, 0.5);

    // Population, not sample: mean 0.4, squared deviations 0.16*3 + 0.36*2 = 1.2; 1.2/5.
    inputs.recent_rois = {0, 1, 0, 1, 0};
    EXPECT_NEAR(raroi(inputs, built_in()).instability, std::sqrt(0.24), 1e-12);
}

TEST(Raroi, InstabilityAboveOneZeroesTheRaroi) {
    RaroiInputs inputs;
    inputs.roi = 0.9;
    inputs.recent_rois = {0, 3};  // σ 1.5: rollback clipped to 1, max(0, 1 - 1.5) = 0
    const RaroiBreakdown result = raroi(inputs, built_in());
    EXPECT_DOUBLE_EQ(result.instability, 1.5);
    EXPECT_DOUBLE_EQ(result.rollback_p, 1);
    EXPECT_DOUBLE_EQ(result.raroi, 0);
}

TEST(Raroi, SafetyAndPenalty) {
    RaroiInputs inputs;
    inputs.roi = 1;
    inputs.safety_scores = {0.8, 0.6};  // mean 0.7
    inputs.hostile_failures = 1;
    inputs.misuse_failures = 2;  // 1 / (1 + 3) = 0.25
    inputs.failed_suites = 2;    // 0.5^2 = 0.25
    const RaroiBreakdown result = raroi(inputs, built_in());
    EXPECT_NEAR(result.safety, 0.7, 1e-12);
    EXPECT_DOUBLE_EQ(result.penalty, 0.0625);
    EXPECT_NEAR(result.raroi, 0.04375, 1e-12);  // 1 * 1 * 1 * (0.7 * 0.0625)
}

TEST(Raroi, SafetyTimesPenaltyIsClippedToZeroAndOne) {
    RaroiInputs inputs;
    inputs.roi = 0.5;
    inputs.safety_scores = {1.5, 2.5};  // mean 2 -> clip to 1
    EXPECT_DOUBLE_EQ(raroi(inputs, built_in()).safety, 2);
    EXPECT_DOUBLE_EQ(raroi(inputs, built_in()).raroi, 0.5);
    inputs.safety_scores = {-0.5};  // clip to 0
    EXPECT_DOUBLE_EQ(raroi(inputs, built_in()).raroi, 0);
}

TEST(Raroi, NegativeCountsAreNoFailures) {
    RaroiInputs inputs;
    inputs.roi = 0.5;
    inputs.hostile_failures = -3;
    inputs.misuse_failures = -1;
    inputs.failed_suites = -2;
    EXPECT_DOUBLE_EQ(raroi(inputs, built_in()).penalty, 1);
    EXPECT_DOUBLE_EQ(raroi(inputs, built_in()).raroi, 0.5);
}

TEST(Raroi, UnknownImpactTypeNamesTheKnownOnes) {
    RaroiInputs inputs;
    inputs.impact = "weird";
    try {
        raroi(inputs, built_in());
        FAIL() << "accepted an unknown impact type";
    } catch (const InputError &error) {
        const std::string message = error.what();
        EXPECT_NE(message.find("impact type 'weird' is not known"), std::string::npos) << message;
        EXPECT_NE(message.find("critical, experimental, low, standard"), std::string::npos)
            << message;
    }
}

TEST(Raroi, ImpactOfACustomTable) {
    ImpactSeverity severity;
    severity.by_type["batch"] = 0.3;
    EXPECT_DOUBLE_EQ(impact_of(severity, "batch"), 0.3);
    EXPECT_DOUBLE_EQ(impact_of(severity, "critical"), 0.9);
    EXPECT_DOUBLE_EQ(impact_of(built_in(), "experimental"), 0.2);
    EXPECT_DOUBLE_EQ(impact_of(built_in(), "low"), 0.1);
}

}  // namespace
}  // namespace sbx::scoring
