// The progress line's text: counts, the clock, the ETA, failures, the run in flight and the
// plugin the host waits on.
#include <gtest/gtest.h>

#include "dashboard/progress_line.hpp"

namespace sbx::dashboard {
namespace {

using std::chrono::seconds;

TEST(ClockText, MinutesAndSecondsThenHours) {
    EXPECT_EQ(clock_text(seconds(0)), "0:00");
    EXPECT_EQ(clock_text(seconds(65)), "1:05");
    EXPECT_EQ(clock_text(seconds(43203)), "12:00:03");
    EXPECT_EQ(clock_text(seconds(-5)), "0:00");
}

TEST(ProgressText, CountsClockEtaAndTheRunInFlight) {
    ProgressState state;
    state.total = 10;
    state.done = 3;
    state.current = "wf / preset (on)";
    state.elapsed = seconds(12);
    EXPECT_EQ(progress_text(state, false), "runs 3/10 (30%)  0:12  ETA 0:28  wf / preset (on)");
}

TEST(ProgressText, NoEtaBeforeTheFirstRunNorTheRunAfterTheLast) {
    ProgressState state;
    state.total = 4;
    state.current = "wf / preset (on)";
    state.elapsed = seconds(3);
    EXPECT_EQ(progress_text(state, false), "runs 0/4 (0%)  0:03  wf / preset (on)");
    state.done = 4;
    EXPECT_EQ(progress_text(state, false), "runs 4/4 (100%)  0:03");
}

TEST(ProgressText, FailuresInRedOnlyWithColors) {
    ProgressState state;
    state.total = 2;
    state.done = 2;
    state.failed = 1;
    EXPECT_EQ(progress_text(state, false), "runs 2/2 (100%)  0:00  1 failed");
    EXPECT_EQ(progress_text(state, true), "runs 2/2 (100%)  0:00  \033[31m1 failed\033[0m");
}

TEST(ProgressText, NamesAPluginCallOverASecondOld) {
    ProgressState state;
    state.total = 1;
    state.waited = plugins::WaitedCall{"slow\033[2J", "predict", std::chrono::milliseconds(999)};
    EXPECT_EQ(progress_text(state, false), "runs 0/1 (0%)  0:00");
    state.waited->waited = std::chrono::milliseconds(65000);
    // The id is the plugin's: no escape sequence of its reaches the terminal.
    const std::string line = progress_text(state, false);
    EXPECT_EQ(line.find('\033'), std::string::npos) << line;
    EXPECT_NE(line.find("  waiting on plugin slow"), std::string::npos) << line;
    EXPECT_NE(line.find(" (predict, 1:05)"), std::string::npos) << line;
}

}  // namespace
}  // namespace sbx::dashboard
