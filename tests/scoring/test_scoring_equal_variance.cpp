// Levene's test (Brown-Forsythe form) against the NIST/SEMATECH e-Handbook's worked example
// (GEAR.DAT: W = 1.705910 with 9 and 90 degrees of freedom), and on groups whose answer is
// known by construction.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "scoring/equal_variance.hpp"

namespace sbx::scoring {
namespace {

TEST(Levene, MatchesTheNistHandbookOnTheGearData) {
    std::ifstream in(std::string(SBX_FIXTURES) + "/nist_gear.txt");
    std::vector<std::vector<double>> batches(10);
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') {
            continue;
        }
        std::istringstream fields(line);
        double diameter = 0;
        int batch = 0;
        fields >> diameter >> batch;
        ASSERT_TRUE(batch >= 1 && batch <= 10) << line;
        batches[static_cast<size_t>(batch - 1)].push_back(diameter);
    }
    const auto test = levene_test(batches);
    ASSERT_TRUE(test.has_value());
    EXPECT_NEAR(test->statistic, 1.705910, 1e-5);
    EXPECT_EQ(test->numerator_degrees, 9);
    EXPECT_EQ(test->denominator_degrees, 90);
    // The handbook: W is below the 5 % critical value 1.985595, so equal variances are not
    // rejected; HypothesisTests.jl gives the p-value as 0.0991.
    EXPECT_NEAR(test->p_value, 0.0991, 1e-4);
}

TEST(Levene, RejectsGroupsWithClearlyDifferentSpreads) {
    const auto test = levene_test(
        {{1.0, 1.1, 0.9, 1.0, 1.05, 0.95, 1.02, 0.98}, {0.0, 2.0, -1.0, 3.0, 1.0, -2.0, 4.0, 0.5}});
    ASSERT_TRUE(test.has_value());
    EXPECT_LT(test->p_value, 0.01);
}

TEST(Levene, EqualGroupsWithoutNoiseAreEqual) {
    const auto test = levene_test({{1, 1, 1}, {2, 2, 2}});
    ASSERT_TRUE(test.has_value());
    EXPECT_EQ(test->statistic, 0);
    EXPECT_EQ(test->p_value, 1);
}

TEST(Levene, RefusesTooLittleData) {
    EXPECT_FALSE(levene_test({{1, 2, 3}}).has_value());
    EXPECT_FALSE(levene_test({{1}, {2}}).has_value());
    EXPECT_FALSE(levene_test({{1, 2}, {}}).has_value());
}

}  // namespace
}  // namespace sbx::scoring
