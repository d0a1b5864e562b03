// Synergy (docs/semantics.md "Synergy"): the combined run against the mean of its parts, for the
// ROI and for each metric over the parts that report it.
#include <gtest/gtest.h>

#include "scoring/synergy.hpp"

namespace sbx::scoring {
namespace {

TEST(Synergy, RoiAndMetricsAgainstTheMeanOfTheParts) {
    const CellResult combined{0.9, {{"latency_ms", 120}, {"errors", 2}, {"only_combined", 5}}};
    const std::vector<CellResult> parts{{0.6, {{"latency_ms", 100}, {"errors", 1}}},
                                        {0.8, {{"latency_ms", 140}, {"only_part", 7}}},
                                        {0.7, {}}};
    const SynergyResult result = synergy(combined, parts);
    // 0.9 - (0.6 + 0.8 + 0.7) / 3 = 0.9 - 0.7.
    EXPECT_NEAR(result.synergy_roi, 0.2, 1e-12);
    // latency: 120 - (100 + 140) / 2 = 0; errors: only the first part has it, 2 - 1 = 1.
    // only_combined has no part to compare with, only_part is not in the combined run.
    EXPECT_EQ(result.synergy_metrics,
              (std::map<std::string, double>{{"synergy_errors", 1}, {"synergy_latency_ms", 0}}));
}

TEST(Synergy, NegativeWhenTogetherIsWorse) {
    // 0.5 - (1 + 0.5) / 2 = -0.25.
    EXPECT_DOUBLE_EQ(synergy({0.5, {}}, {{1, {}}, {0.5, {}}}).synergy_roi, -0.25);
}

TEST(Synergy, NoPartsGiveZeros) {
    const SynergyResult result = synergy({0.9, {{"latency_ms", 120}}}, {});
    EXPECT_DOUBLE_EQ(result.synergy_roi, 0);
    EXPECT_TRUE(result.synergy_metrics.empty());
}

}  // namespace
}  // namespace sbx::scoring
