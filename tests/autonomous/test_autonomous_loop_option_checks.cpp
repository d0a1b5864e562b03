// The autonomous loop's and find-boundaries' options checked as a command line gives them:
// ranges refused naming the option, thresholds kept only when written, the search made.
#include <gtest/gtest.h>

#include "autonomous/boundary_options.hpp"
#include "autonomous/loop_option_checks.hpp"
#include "util/errors.hpp"

namespace sbx::autonomous {
namespace {

template <typename Check>
std::string refusal(Check check) {
    try {
        check();
    } catch (const InputError &e) {
        return e.what();
    }
    return "";
}

TEST(LoopOptionChecks, NumbersNotWrittenAreLeftToTheSettings) {
    LoopOptionsAsGiven given;
    given.roi_cycles = 0;  // not written: never checked, never kept
    const auto options = checked_loop_options("run-autonomous", given, {});
    EXPECT_FALSE(options.roi_cycles);
    EXPECT_FALSE(options.roi_threshold);
    EXPECT_FALSE(options.entropy_plateau_consecutive);
    EXPECT_FALSE(options.preset_count_given);
    EXPECT_EQ(options.workers, 0U);
}

TEST(LoopOptionChecks, WrittenNumbersAreCheckedAndKept) {
    LoopOptionsAsGiven given;
    given.roi_cycles = 4;
    given.roi_threshold = 0.5;
    given.consecutive = 2;
    given.workers = 3;
    given.threshold_weight = 0.3;
    const auto options =
        checked_loop_options("run-autonomous", given,
                             {"roi-cycles", "roi-threshold", "consecutive", "workers",
                              "synergy-threshold-weight", "preset-count"});
    EXPECT_EQ(options.roi_cycles, 4);
    EXPECT_EQ(options.roi_threshold, 0.5);
    EXPECT_EQ(options.entropy_plateau_consecutive, 2);
    EXPECT_EQ(options.synergy_threshold_weight, 0.3);
    EXPECT_EQ(options.workers, 3U);
    EXPECT_TRUE(options.preset_count_given);
}

TEST(LoopOptionChecks, OutOfRangeIsRefusedNamingTheCommandAndOption) {
    LoopOptionsAsGiven given;
    given.roi_cycles = 0;
    EXPECT_EQ(refusal([&] { (void)checked_loop_options("run-autonomous", given, {"roi-cycles"}); }),
              "run-autonomous: --roi-cycles 0 must be at least 1");
    given = {};
    given.threshold_window = 1;
    EXPECT_EQ(refusal([&] {
                  (void)checked_loop_options("run-autonomous", given, {"synergy-threshold-window"});
              }),
              "run-autonomous: --synergy-threshold-window 1 must be from 2 to 1000");
    given = {};
    given.loop.max_iterations = 0;
    EXPECT_EQ(refusal([&] { (void)checked_loop_options("run-autonomous", given, {}); }),
              "run-autonomous: --max-iterations 0 must be at least 1");
    given = {};
    given.loop.preset_strategy = "greedy";
    EXPECT_NE(refusal([&] {
                  (void)checked_loop_options("run-autonomous", given, {});
              }).find("--preset-strategy greedy: write q_learning"),
              std::string::npos);
}

TEST(LoopOptionChecks, RunCompleteNeedsPresets) {
    LoopOptionsAsGiven given;
    EXPECT_EQ(refusal([&] { (void)checked_loop_options("run-complete", given, {}); }),
              "run-complete: give the presets to run, e.g. run-complete presets.json");
    given.loop.preset_files = {"presets.json"};
    EXPECT_EQ(checked_loop_options("run-complete", given, {}).preset_files,
              given.loop.preset_files);
}

TEST(BoundaryOptions, DefaultsToBisectAndChecksOnlyWrittenSeedAndWorkers) {
    BoundaryOptions options;
    check_boundary_options(options, {});
    EXPECT_EQ(options.strategy, "bisect");
    options.workers = 0;
    EXPECT_EQ(refusal([&] {
                  check_boundary_options(options, {"workers"});
              }).rfind("find-boundaries: --workers must be from 1 to ", 0),
              0U);
    options = {};
    options.break_below = 0;
    EXPECT_EQ(refusal([&] { check_boundary_options(options, {}); }),
              "find-boundaries: --break-below must be an ROI in (0, 1], e.g. --break-below 0.9");
    options = {};
    options.strategy = "random";
    EXPECT_EQ(refusal([&] { check_boundary_options(options, {}); }),
              "find-boundaries: --strategy random: write bisect or grid");
}

TEST(BoundaryOptions, TheSearchTakesTheDefaultAxesWhenNoneAreNamed) {
    BoundaryOptions options;
    options.runs = 2;
    check_boundary_options(options, {});
    const auto search = boundary_search(options, {}, 42);
    EXPECT_EQ(search.axes.size(), presets::default_axis_keys().size());
    EXPECT_EQ(search.seed, 42);
    EXPECT_EQ(search.runs, 2);
    EXPECT_EQ(search.strategy, "bisect");
    const auto one = boundary_search(options, {presets::default_axis_keys().front()}, 1);
    ASSERT_EQ(one.axes.size(), 1U);
    EXPECT_EQ(one.axes[0].key, presets::default_axis_keys().front());
}

}  // namespace
}  // namespace sbx::autonomous
