// How per-run metric values fold into a cell's: the mean over all runs unless declared.
#include <gtest/gtest.h>

#include "plugins/metric_aggregation.hpp"

namespace {

using sbx::plugins::Aggregation;

TEST(MetricAggregation, EachDeclaredFoldAndTheMeanOverAllRuns) {
    const std::map<std::string, double> first{{"peak", 3}, {"rate", 1}};
    const std::map<std::string, double> second{{"peak", 7}};
    const std::map<std::string, double> third{{"peak", 5}, {"rate", 1}};
    const std::vector<const std::map<std::string, double> *> runs{&first, &second, &third};
    const auto by = [&](Aggregation aggregation) {
        return sbx::plugins::aggregate_runs(runs, {{"peak", aggregation}}).at("peak");
    };
    EXPECT_DOUBLE_EQ(by(Aggregation::max), 7);
    EXPECT_DOUBLE_EQ(by(Aggregation::min), 3);
    EXPECT_DOUBLE_EQ(by(Aggregation::sum), 15);
    EXPECT_DOUBLE_EQ(by(Aggregation::last), 5);
    EXPECT_DOUBLE_EQ(by(Aggregation::mean), 5);
    // Undeclared: a rate over the cell's runs, a run without it counting 0.
    EXPECT_DOUBLE_EQ(sbx::plugins::aggregate_runs(runs, {}).at("rate"), 2.0 / 3.0);
}

TEST(MetricAggregation, NamesRoundTripAndUnknownOnesAreRefused) {
    for (const auto aggregation : {Aggregation::mean, Aggregation::max, Aggregation::min,
                                   Aggregation::sum, Aggregation::last}) {
        EXPECT_EQ(sbx::plugins::parse_aggregation(sbx::plugins::aggregation_name(aggregation)),
                  aggregation);
    }
    EXPECT_FALSE(sbx::plugins::parse_aggregation("median"));
}

}  // namespace
