// The temporal trajectory (docs/semantics.md "Temporal trajectory"): degradation, resilience and
// stability per stage.
#include <gtest/gtest.h>

#include <cmath>

#include "scoring/trajectory.hpp"

namespace sbx::scoring {
namespace {

TEST(Trajectory, StageNamesInOrder) {
    EXPECT_EQ(trajectory_stage_names(),
              (std::vector<std::string>{"normal", "high_latency", "resource_strain", "schema_drift",
                                        "chaotic_failure"}));
}

TEST(Trajectory, ByHand) {
    const auto stages = trajectory_metrics({{"normal", 0.8},
                                            {"high_latency", 0.6},
                                            {"resource_strain", 0.4},
                                            {"schema_drift", 0.8},
                                            {"chaotic_failure", 0}});
    ASSERT_EQ(stages.size(), 5u);
    // normal: the reference; a single ROI has no spread.
    EXPECT_EQ(stages[0].stage, "normal");
    EXPECT_DOUBLE_EQ(stages[0].roi, 0.8);
    EXPECT_DOUBLE_EQ(stages[0].degradation, 0);
    EXPECT_DOUBLE_EQ(stages[0].resilience, 1);
    EXPECT_DOUBLE_EQ(stages[0].stability, 1);
    // high_latency: {0.8, 0.6}, mean 0.7, squares 0.01 + 0.01 = 0.02, / (2 - 1) -> s = √0.02.
    EXPECT_EQ(stages[1].stage, "high_latency");
    EXPECT_NEAR(stages[1].degradation, 0.2, 1e-12);
    EXPECT_NEAR(stages[1].resilience, 0.75, 1e-12);
    EXPECT_NEAR(stages[1].stability, 1 / (1 + std::sqrt(0.02)), 1e-12);
    // resource_strain: {0.8, 0.6, 0.4}, mean 0.6, squares 0.04 + 0 + 0.04 = 0.08, / 2 -> 0.2.
    EXPECT_NEAR(stages[2].degradation, 0.4, 1e-12);
    EXPECT_NEAR(stages[2].resilience, 0.5, 1e-12);
    EXPECT_NEAR(stages[2].stability, 1 / 1.2, 1e-12);
    // schema_drift: {0.8, 0.6, 0.4, 0.8}, mean 0.65, squares 0.0225 + 0.0025 + 0.0625 +
    // 0.0225 = 0.11, / 3.
    EXPECT_NEAR(stages[3].degradation, 0, 1e-12);
    EXPECT_NEAR(stages[3].resilience, 1, 1e-12);
    EXPECT_NEAR(stages[3].stability, 1 / (1 + std::sqrt(0.11 / 3)), 1e-12);
    // chaotic_failure: {…, 0}, mean 0.52, squares 0.0784 + 0.0064 + 0.0144 + 0.0784 + 0.2704
    // = 0.448, / 4 = 0.112.
    EXPECT_NEAR(stages[4].degradation, 0.8, 1e-12);
    EXPECT_DOUBLE_EQ(stages[4].resilience, 0);
    EXPECT_NEAR(stages[4].stability, 1 / (1 + std::sqrt(0.112)), 1e-12);
}

TEST(Trajectory, ZeroNormalRoiGivesZeroResilience) {
    const auto stages = trajectory_metrics({{"normal", 0}, {"high_latency", 0.5}});
    EXPECT_DOUBLE_EQ(stages[0].resilience, 0);
    EXPECT_DOUBLE_EQ(stages[1].resilience, 0);
    EXPECT_DOUBLE_EQ(stages[1].degradation, -0.5);  // it got better
}

TEST(Trajectory, NoStages) {
    EXPECT_TRUE(trajectory_metrics({}).empty());
}

}  // namespace
}  // namespace sbx::scoring
