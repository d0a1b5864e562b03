// The t tests of the convergence gates: Welch's against the published example, the
// equivalence test (TOST) against values worked by hand, and the degenerate cases.
#include <gtest/gtest.h>

#include <vector>

#include "scoring/mean_tests.hpp"

namespace sbx::scoring {
namespace {

TEST(WelchTTest, MatchesThePublishedExample) {
    // Wikipedia, "Welch's t-test", example 1: t = −2.46, ν ≈ 24.9, p = 0.021.
    const std::vector<double> a = {27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1,
                                   21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4};
    const std::vector<double> b = {27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0,
                                   24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4};
    const auto p = welch_t_test(a, b);
    ASSERT_TRUE(p.has_value());
    EXPECT_NEAR(*p, 0.021, 0.001);
    EXPECT_NEAR(*welch_t_test(b, a), *p, 1e-12) << "two-sided";
}

TEST(WelchTTest, DegenerateSamples) {
    EXPECT_FALSE(welch_t_test({1}, {1, 2}).has_value());
    EXPECT_EQ(*welch_t_test({2, 2, 2}, {2, 2}), 1.0);
    EXPECT_EQ(*welch_t_test({2, 2, 2}, {3, 3}), 0.0);
}

TEST(WithinMarginTTest, SmallSteadyDeltasAreConfidentlyWithin) {
    // mean 0.0024, sd 0.00305, se 0.00136: t = −5.57 against +0.01 and 9.09 against −0.01
    // on 4 degrees of freedom; the larger one-sided p is P(T4 ≤ −5.57) ≈ 0.0025.
    const auto p = within_margin_t_test({0.004, 0.006, -0.002, 0.003, 0.001}, 0.01);
    ASSERT_TRUE(p.has_value());
    EXPECT_GT(*p, 0.001);
    EXPECT_LT(*p, 0.005);
}

TEST(WithinMarginTTest, ANoisyMeanNearZeroIsNotShownWithin) {
    const auto p = within_margin_t_test({0.05, -0.05, 0.04, -0.04, 0.0}, 0.01);
    ASSERT_TRUE(p.has_value());
    EXPECT_GT(*p, 0.3);
}

TEST(WithinMarginTTest, DegenerateSamples) {
    EXPECT_FALSE(within_margin_t_test({0.001}, 0.01).has_value());
    EXPECT_EQ(*within_margin_t_test({0.001, 0.001}, 0.01), 0.0);
    EXPECT_EQ(*within_margin_t_test({0.02, 0.02}, 0.01), 1.0);
}

}  // namespace
}  // namespace sbx::scoring
