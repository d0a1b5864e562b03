// The shared statistics: exact values, and what each returns for too few values.
#include <gtest/gtest.h>

#include <cmath>

#include "scoring/statistics.hpp"

namespace sbx::scoring {
namespace {

TEST(Statistics, SumAndMean) {
    EXPECT_DOUBLE_EQ(sum({0.5, 0.25}), 0.75);
    EXPECT_DOUBLE_EQ(sum({}), 0);
    EXPECT_DOUBLE_EQ(mean({1, 2, 3, 4}), 2.5);  // 10 / 4
    EXPECT_DOUBLE_EQ(mean({}), 0);              // never NaN
}

TEST(Statistics, PopulationAndSampleStandardDeviation) {
    // mean 5; squared deviations 9+1+1+1+0+0+4+16 = 32; 32/8 = 4 -> 2; 32/7 -> sqrt(32/7).
    const std::vector<double> values{2, 4, 4, 4, 5, 5, 7, 9};
    EXPECT_DOUBLE_EQ(population_stddev(values), 2);
    EXPECT_NEAR(sample_stddev(values), std::sqrt(32.0 / 7), 1e-12);
    // Fewer than two values have no spread.
    EXPECT_DOUBLE_EQ(population_stddev({3}), 0);
    EXPECT_DOUBLE_EQ(sample_stddev({3}), 0);
    EXPECT_DOUBLE_EQ(population_stddev({}), 0);
    EXPECT_DOUBLE_EQ(sample_stddev({}), 0);
}

TEST(Statistics, Clip) {
    EXPECT_DOUBLE_EQ(clip(-0.5, 0, 1), 0);
    EXPECT_DOUBLE_EQ(clip(1.5, 0, 1), 1);
    EXPECT_DOUBLE_EQ(clip(0.3, 0, 1), 0.3);
}

TEST(Statistics, ExponentialMovingAverageStartsAtTheFirstValue) {
    // 1; 0.3*0 + 0.7*1 = 0.7; 0.3*0 + 0.7*0.7 = 0.49.
    EXPECT_NEAR(exponential_moving_average({1, 0, 0}, 0.3), 0.49, 1e-12);
    EXPECT_DOUBLE_EQ(exponential_moving_average({2}, 0.3), 2);
    EXPECT_DOUBLE_EQ(exponential_moving_average({}, 0.3), 0);
}

TEST(Statistics, LastValues) {
    EXPECT_EQ(last_values({1, 2, 3}, 2), (std::vector<double>{2, 3}));
    EXPECT_EQ(last_values({1, 2}, 5), (std::vector<double>{1, 2}));
    EXPECT_TRUE(last_values({1, 2}, 0).empty());
}

}  // namespace
}  // namespace sbx::scoring
