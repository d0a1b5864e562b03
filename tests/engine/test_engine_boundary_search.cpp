// The failure-boundary search on planted boundaries: bisection finds them within the axis's
// precision in far fewer probes than the grid scan, reuses a known bracket, and says so
// when the workflow holds or breaks across the whole axis.
#include <gtest/gtest.h>

#include "engine/boundary_search.hpp"
#include "util/errors.hpp"

namespace sbx::engine {
namespace {

// A workflow that breaks from `threshold` on (harsher = larger), counting its probes.
ProbeFunction planted(double threshold, bool larger_is_harsher = true) {
    return [=](double value) {
        const bool broke = larger_is_harsher ? value >= threshold : value <= threshold;
        return BoundaryProbe{value, broke, broke ? 0.0 : 1.0};
    };
}

TEST(BoundarySearch, BisectionFindsAPlantedIntegerBoundaryInLogProbes) {
    const auto axis = presets::parse_axis("LOAD:0:100:1");
    for (const int threshold : {1, 7, 37, 64, 100}) {
        const auto found = bisect_boundary(axis, planted(threshold));
        ASSERT_EQ(found.kind, BoundaryResult::Kind::found) << threshold;
        EXPECT_EQ(found.breaks, threshold);
        EXPECT_EQ(found.holds, threshold - 1);
        EXPECT_LE(found.probes.size(), 2u + 7u) << "two ends, then ⌈log2 100⌉ halvings";
        const auto scanned = scan_boundary(axis, planted(threshold));
        EXPECT_EQ(scanned.breaks, threshold);
        EXPECT_EQ(scanned.holds, threshold - 1);
        EXPECT_EQ(scanned.probes.size(), static_cast<size_t>(threshold) + 1);
    }
    EXPECT_EQ(describe_boundary(axis, bisect_boundary(axis, planted(37))),
              "breaks at LOAD >= 37; holds at LOAD <= 36");
}

TEST(BoundarySearch, ASizeAxisIsHalvedInRatioDownToItsPrecision) {
    const auto axis = presets::parse_axis("MEMORY_LIMIT");  // 1024Mi down to 4Mi, ratio 1.1
    const auto found = bisect_boundary(axis, planted(11.5, false));
    ASSERT_EQ(found.kind, BoundaryResult::Kind::found);
    EXPECT_LE(found.breaks, 11.5);
    EXPECT_GT(found.holds, 11.5);
    EXPECT_LE(found.holds / found.breaks, 1.1 + 1e-9);
    EXPECT_LT(found.probes.size(), scan_boundary(axis, planted(11.5, false)).probes.size());
    EXPECT_EQ(describe_boundary(axis, found)
                  .rfind("breaks at MEMORY_LIMIT <= 11Mi; holds at "
                         "MEMORY_LIMIT >= 12Mi",
                         0),
              0u)
        << describe_boundary(axis, found);
}

TEST(BoundarySearch, AKnownBracketIsCheckedAndReused) {
    const auto axis = presets::parse_axis("LOAD:0:100:1");
    const auto again = bisect_boundary(axis, planted(37), std::pair(36.0, 37.0));
    EXPECT_EQ(again.probes.size(), 2u);
    EXPECT_EQ(again.breaks, 37);
    // The workflow changed: the old bracket no longer holds, the search starts over.
    const auto moved = bisect_boundary(axis, planted(20), std::pair(36.0, 37.0));
    EXPECT_EQ(moved.breaks, 20);
    EXPECT_EQ(moved.holds, 19);
}

TEST(BoundarySearch, EndsWhenNoDoubleIsLeftBetweenTheEnds) {
    // A precision finer than the doubles around a million: the bracket stops at neighbours.
    presets::BoundaryAxis axis{"LOAD", 1000000, 2000000, 1e-11, false, false, ""};
    const auto found = bisect_boundary(axis, planted(1234567.5));
    EXPECT_EQ(found.kind, BoundaryResult::Kind::found);
    EXPECT_LT(found.probes.size(), 80u);
    EXPECT_LT(found.holds, 1234567.5);
    EXPECT_GE(found.breaks, 1234567.5);
}

TEST(BoundarySearch, SaysWhenNothingOrEverythingBreaks) {
    const auto axis = presets::parse_axis("CONCURRENCY_LEVEL");
    const auto never = bisect_boundary(axis, planted(1000));
    EXPECT_EQ(never.kind, BoundaryResult::Kind::holds_everywhere);
    EXPECT_EQ(never.probes.size(), 2u);
    EXPECT_EQ(describe_boundary(axis, never), "holds at every CONCURRENCY_LEVEL up to 64");
    const auto always = bisect_boundary(axis, planted(0));
    EXPECT_EQ(always.kind, BoundaryResult::Kind::breaks_everywhere);
    EXPECT_EQ(always.probes.size(), 1u);
    EXPECT_EQ(describe_boundary(axis, always),
              "breaks already at CONCURRENCY_LEVEL = 1, the mildest setting tried");
}

TEST(BoundaryAxes, SpecsAreParsedOrRefusedSayingWhatToWrite) {
    const auto custom = presets::parse_axis("LOAD:10:0:0.5");
    EXPECT_EQ(custom.mild, 10);
    EXPECT_EQ(custom.harsh, 0);
    EXPECT_FALSE(custom.integer);
    EXPECT_EQ(presets::axis_value_text(custom, 2.5), "2.5");
    EXPECT_EQ(presets::axis_value_text(presets::parse_axis("MEMORY_LIMIT"), 12), "12Mi");
    EXPECT_EQ(grid_values(presets::parse_axis("LOAD:0:3:1")), (std::vector<double>{0, 1, 2, 3}));
    for (const char *bad :
         {"NOPE", "LOAD:1", "LOAD:1:1", "LOAD:a:2", "LOAD:0:1:0", "MEMORY_LIMIT:64:4:0.5", ":0:1",
          "CONCURRENCY_LEVEL:1.4:10:0.1", "LOAD:0:1:1e-9", "LOAD:1e17:2e17:1"}) {
        EXPECT_THROW(presets::parse_axis(bad), InputError) << bad;
    }
}

}  // namespace
}  // namespace sbx::engine
