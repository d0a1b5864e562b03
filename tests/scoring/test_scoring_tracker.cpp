// The ROI tracker (docs/semantics.md "Tracker"): diminishing returns, convergence streaks, the
// entropy ceiling, rankings, rolling MAE and reliability.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "scoring/tracker.hpp"

namespace sbx::scoring {
namespace {

// Records one cycle whose ROI changed by `delta` for `modules`.
void cycle(Tracker &tracker, double delta, const std::vector<std::string> &modules) {
    tracker.update(0, delta, modules, {});
}

TEST(Tracker, UpdateRecordsDeltasAndMetrics) {
    Tracker tracker;
    tracker.update(0.5, 0.75, {"a", "b", "a"}, {{"latency_ms", 12}});
    tracker.update(0.75, 0.5, {"a"}, {});
    EXPECT_EQ(tracker.deltas(), (std::vector<double>{0.25, -0.25}));
    EXPECT_EQ(tracker.module_deltas("a"), (std::vector<double>{0.25, -0.25}));  // once a cycle
    EXPECT_EQ(tracker.module_deltas("b"), (std::vector<double>{0.25}));
    EXPECT_TRUE(tracker.module_deltas("c").empty());
    ASSERT_EQ(tracker.metrics_history().size(), 2u);
    EXPECT_DOUBLE_EQ(tracker.metrics_history()[0].at("latency_ms"), 12);
    EXPECT_TRUE(tracker.metrics_history()[1].empty());
}

TEST(Tracker, DiminishingIsToleranceTimesOnePlusSigma) {
    Tracker tracker;
    EXPECT_DOUBLE_EQ(tracker.diminishing(), 0.01);  // no deltas: σ 0
    cycle(tracker, 0.1, {});
    EXPECT_DOUBLE_EQ(tracker.diminishing(), 0.01);  // one delta: σ 0
    cycle(tracker, 0.3, {});
    // {0.1, 0.3}: mean 0.2, deviations ±0.1 -> σ 0.1; 0.01 * 1.1.
    EXPECT_NEAR(tracker.diminishing(), 0.011, 1e-12);
}

TEST(Tracker, DiminishingLooksAtTheLastWindowWithPopulationSigma) {
    Tracker tracker;
    for (double delta : {10.0, 1.0, 1.0, 1.0, 1.0, 1.0}) {
        cycle(tracker, delta, {});
    }
    EXPECT_DOUBLE_EQ(tracker.diminishing(), 0.01);  // the 10 left the window of 5

    Tracker alternating;
    for (double delta : {0.0, 1.0, 0.0, 1.0, 0.0}) {
        cycle(alternating, delta, {});
    }
    // mean 0.4, squares 0.16 * 3 + 0.36 * 2 = 1.2, / 5 = 0.24.
    EXPECT_NEAR(alternating.diminishing(), 0.01 * (1 + std::sqrt(0.24)), 1e-12);
}

TEST(Tracker, ConvergesAfterRoiCyclesWithAFullWindow) {
    Tracker tracker;  // window 5, roi_cycles 3
    for (int update = 1; update <= 4; ++update) {
        cycle(tracker, 0, {"a"});
        EXPECT_EQ(tracker.streak("a"), 0) << "window not full at update " << update;
    }
    cycle(tracker, 0, {"a"});  // 5 deltas: |mean 0| <= 0.01
    EXPECT_EQ(tracker.streak("a"), 1);
    cycle(tracker, 0, {"a"});
    EXPECT_EQ(tracker.streak("a"), 2);
    EXPECT_FALSE(tracker.converged("a"));
    cycle(tracker, 0, {"a"});
    EXPECT_EQ(tracker.streak("a"), 3);
    EXPECT_TRUE(tracker.converged("a"));
    EXPECT_EQ(tracker.converged_modules(), std::vector<std::string>{"a"});
}

TEST(Tracker, RoiConfidenceWantsTheMeanWithinByAnEquivalenceTest) {
    // Deltas that swing ±0.009: their mean (0.0018) is within the threshold (≈ 0.0101), but
    // five of them do not show it at 95 % (the TOST p is about 0.07).
    const std::vector<double> swings = {0.009, -0.009, 0.009, -0.009, 0.009};
    Tracker by_mean(TrackerSettings{5, 0.01, 1, 0, std::nullopt});
    Tracker by_test(TrackerSettings{5, 0.01, 1, 0, 0.95});
    for (const double delta : swings) {
        cycle(by_mean, delta, {"a"});
        cycle(by_test, delta, {"a"});
    }
    EXPECT_TRUE(by_mean.converged("a"));
    EXPECT_FALSE(by_test.converged("a"));
    // Steady small deltas show it.
    Tracker steady(TrackerSettings{5, 0.01, 1, 0, 0.95});
    for (const double delta : {0.001, 0.002, 0.001, 0.002, 0.001}) {
        cycle(steady, delta, {"a"});
    }
    EXPECT_TRUE(steady.converged("a"));
}

TEST(Tracker, ALargeDeltaResetsTheStreak) {
    Tracker tracker;
    for (int update = 0; update < 6; ++update) {
        cycle(tracker, 0, {"a"});
    }
    ASSERT_EQ(tracker.streak("a"), 2);
    // Window {0, 0, 0, 0, 1}: mean 0.2; σ = √((0.04·4 + 0.64) / 5) = √0.16 = 0.4, so the
    // threshold is 0.014 < 0.2.
    cycle(tracker, 1, {"a"});
    EXPECT_NEAR(tracker.diminishing(), 0.014, 1e-12);
    EXPECT_EQ(tracker.streak("a"), 0);
    EXPECT_FALSE(tracker.converged("a"));
}

TEST(Tracker, TheThresholdItselfCountsAsWithin) {
    // Constant deltas of 0.25: σ 0, threshold = tolerance.
    Tracker equal(TrackerSettings{1, 0.25, 1, 0, std::nullopt});
    cycle(equal, 0.25, {"a"});
    EXPECT_TRUE(equal.converged("a"));  // |0.25| <= 0.25

    Tracker above(TrackerSettings{1, 0.125, 1, 0, std::nullopt});
    cycle(above, 0.25, {"a"});
    EXPECT_FALSE(above.converged("a"));  // |0.25| > 0.125
}

TEST(Tracker, OnlyModulesOfTheCycleAdvance) {
    Tracker tracker(TrackerSettings{1, 0.01, 2, 0, std::nullopt});
    cycle(tracker, 0, {"a", "b"});
    cycle(tracker, 0, {"a"});
    cycle(tracker, 0, {"a"});
    EXPECT_EQ(tracker.streak("b"), 1);
    EXPECT_FALSE(tracker.converged("b"));
    EXPECT_TRUE(tracker.converged("a"));
    EXPECT_EQ(tracker.streak("unknown"), 0);
}

TEST(Tracker, ConvergedModulesStayConverged) {
    Tracker tracker(TrackerSettings{1, 0.01, 1, 0, std::nullopt});
    cycle(tracker, 0, {"b"});
    cycle(tracker, 0, {"a"});
    cycle(tracker, 5, {"a"});
    EXPECT_TRUE(tracker.converged("a"));
    EXPECT_EQ(tracker.converged_modules(), (std::vector<std::string>{"a", "b"}));
}

TEST(Tracker, RejectsImpossibleSettings) {
    EXPECT_THROW(Tracker(TrackerSettings{0, 0.01, 3, 0, std::nullopt}), std::invalid_argument);
    EXPECT_THROW(Tracker(TrackerSettings{5, 0.01, 0, 0, std::nullopt}), std::invalid_argument);
    EXPECT_THROW(Tracker(TrackerSettings{5, -0.01, 3, 0, std::nullopt}), std::invalid_argument);
    EXPECT_THROW(Tracker(TrackerSettings{5, 0.01, 3, -1, std::nullopt}), std::invalid_argument);
}

// Window 3, entropy threshold 0.5.
Tracker entropy_tracker(double threshold = 0.5) {
    return Tracker(TrackerSettings{3, 0.01, 3, threshold, std::nullopt});
}

TEST(EntropyCeiling, MeanRoiPerEntropyBelowTheThreshold) {
    Tracker tracker = entropy_tracker();
    for (double entropy : {0.5, 0.0, 0.25}) {
        cycle(tracker, 0.1, {"m"});
        tracker.update_entropy("m", entropy);
    }
    // 0.1/0.5 = 0.2; the zero entropy delta is skipped; 0.1/0.25 = 0.4; mean 0.3 < 0.5.
    EXPECT_TRUE(tracker.entropy_complete("m"));
}

TEST(EntropyCeiling, NeedsAFullWindowOfPairs) {
    Tracker tracker = entropy_tracker();
    cycle(tracker, 0.1, {"m"});
    cycle(tracker, 0.1, {"m"});
    cycle(tracker, 0.1, {"m"});
    tracker.update_entropy("m", 1);
    tracker.update_entropy("m", 1);  // two pairs only; the third ROI delta has no partner
    EXPECT_FALSE(tracker.entropy_complete("m"));
    tracker.update_entropy("m", 1);  // 0.1 per unit, three times
    EXPECT_TRUE(tracker.entropy_complete("m"));
    EXPECT_FALSE(tracker.entropy_complete("unknown"));
}

TEST(EntropyCeiling, OnlyTheLastWindowCountsAndSignsDoNotMatter) {
    Tracker tracker = entropy_tracker();
    for (auto [roi, entropy] : {std::pair{10.0, 0.1}, {-0.1, -0.5}, {0.1, 0.5}, {-0.1, 0.5}}) {
        cycle(tracker, roi, {"m"});
        tracker.update_entropy("m", entropy);
    }
    // The ratio 100 of the first pair is out of the window; the rest are 0.2 each.
    EXPECT_TRUE(tracker.entropy_complete("m"));
}

TEST(EntropyCeiling, AtOrAboveTheThresholdIsNotComplete) {
    Tracker at = entropy_tracker();
    Tracker above = entropy_tracker();
    for (int i = 0; i < 3; ++i) {
        cycle(at, 0.125, {"m"});
        at.update_entropy("m", 0.25);  // ratio exactly 0.5
        cycle(above, 0.1, {"m"});
        above.update_entropy("m", 0.1);  // ratio 1
    }
    EXPECT_FALSE(at.entropy_complete("m"));
    EXPECT_FALSE(above.entropy_complete("m"));
}

TEST(EntropyCeiling, AllZeroEntropyOrThresholdZeroIsNeverComplete) {
    Tracker no_entropy = entropy_tracker();
    Tracker off = entropy_tracker(0);
    for (int i = 0; i < 3; ++i) {
        cycle(no_entropy, 0.1, {"m"});
        no_entropy.update_entropy("m", 0);
        cycle(off, 0.001, {"m"});
        off.update_entropy("m", 100);
    }
    EXPECT_FALSE(no_entropy.entropy_complete("m"));
    EXPECT_FALSE(off.entropy_complete("m"));
}

TEST(Tracker, RankingsBySumOfRaroiThenName) {
    Tracker tracker;
    tracker.update(0, 0.5, {"a", "b"}, {});
    tracker.update(0.5, 0.25, {"a"}, {});
    tracker.update(0.25, 0.35, {"d"}, {});
    tracker.record_raroi("a", 0.5);
    tracker.record_raroi("a", 0.25);
    tracker.record_raroi("b", 1);
    tracker.record_raroi("c", 0.75);
    const std::vector<ModuleRanking> rankings = tracker.rankings();
    ASSERT_EQ(rankings.size(), 4u);
    EXPECT_EQ(rankings[0].module, "b");  // 1
    EXPECT_DOUBLE_EQ(rankings[0].raroi_total, 1);
    EXPECT_DOUBLE_EQ(rankings[0].roi_delta_total, 0.5);
    EXPECT_EQ(rankings[1].module, "a");  // 0.75, before c by name
    EXPECT_DOUBLE_EQ(rankings[1].raroi_total, 0.75);
    EXPECT_DOUBLE_EQ(rankings[1].roi_delta_total, 0.25);  // 0.5 - 0.25
    EXPECT_EQ(rankings[2].module, "c");
    EXPECT_DOUBLE_EQ(rankings[2].roi_delta_total, 0);
    EXPECT_EQ(rankings[3].module, "d");  // no RAROI recorded
    EXPECT_DOUBLE_EQ(rankings[3].raroi_total, 0);
    EXPECT_NEAR(rankings[3].roi_delta_total, 0.1, 1e-12);
}

TEST(ForecastAccuracy, RollingMae) {
    const std::vector<double> predicted{1, 2, 3, 4};
    // Errors 0.5, 0, 1, 2.
    const std::vector<double> actual{1.5, 2, 2, 6};
    EXPECT_DOUBLE_EQ(Tracker::rolling_mae(predicted, actual, 2), 1.5);     // (1 + 2) / 2
    EXPECT_DOUBLE_EQ(Tracker::rolling_mae(predicted, actual, 3), 1);       // (0 + 1 + 2) / 3
    EXPECT_DOUBLE_EQ(Tracker::rolling_mae(predicted, actual, 10), 0.875);  // 3.5 / 4
    EXPECT_DOUBLE_EQ(Tracker::rolling_mae(predicted, actual, 0), 0.875);   // 0: all pairs
    // A forecast of the next, not yet observed value has no pair.
    EXPECT_DOUBLE_EQ(Tracker::rolling_mae({1, 2, 3, 4, 5}, actual, 2), 1.5);
    EXPECT_DOUBLE_EQ(Tracker::rolling_mae({}, {}, 5), 0);
}

TEST(ForecastAccuracy, Reliability) {
    // Errors 0.5, 0, 1, 2; EMA 0.5 -> 0.35 -> 0.3 + 0.245 = 0.545 -> 0.6 + 0.3815 = 0.9815.
    EXPECT_NEAR(Tracker::reliability({1, 2, 3, 4}, {1.5, 2, 2, 6}), 1 / 1.9815, 1e-12);
    EXPECT_DOUBLE_EQ(Tracker::reliability({1, 2}, {1, 2}), 1);  // perfect
    EXPECT_DOUBLE_EQ(Tracker::reliability({}, {}), 1);          // nothing to judge
    EXPECT_DOUBLE_EQ(Tracker::reliability({0}, {3}), 0.25);     // 1 / (1 + 3)
}

}  // namespace
}  // namespace sbx::scoring
