// The qemu guest agent's control line parser (plugins/executors/qemu/guest/control_line),
// compiled in as the agent compiles it. Also the regression tests of what fuzzing it found.
#include <gtest/gtest.h>

#include <string>

#include "control_line.hpp"

namespace {

using sbx::guest::ControlKind;
using sbx::guest::parse_control_line;
using sbx::guest::take_line;

TEST(GuestControlLine, LinesAreCutAtNewlinesWithoutTheCarriageReturn) {
    std::string buffer = "run 1\r\nquit\nrun 2";
    std::string line;
    ASSERT_TRUE(take_line(buffer, line));
    EXPECT_EQ(line, "run 1");
    ASSERT_TRUE(take_line(buffer, line));
    EXPECT_EQ(line, "quit");
    EXPECT_FALSE(take_line(buffer, line)) << "no newline yet: the line is not complete";
    EXPECT_EQ(line, "quit");
    EXPECT_EQ(buffer, "run 2");
}

TEST(GuestControlLine, RunTakesTheHostsJobNumber) {
    const auto command = parse_control_line("run 18446744073709551615");
    EXPECT_EQ(command.kind, ControlKind::run);
    EXPECT_EQ(command.job_id, "18446744073709551615");
    EXPECT_EQ(parse_control_line("quit").kind, ControlKind::quit);
}

// Found while writing the fuzz harness: the agent joined whatever followed "run " to its
// jobs folder, so "run ../.." named a folder outside the share.
TEST(GuestControlLine, AJobIdThatIsNotANumberIsRefused) {
    for (const char *line :
         {"run ../../etc", "run ", "run 1 2", "run -1", "run 1/..", "run 123456789012345678901"}) {
        const auto command = parse_control_line(line);
        EXPECT_EQ(command.kind, ControlKind::invalid) << line;
        EXPECT_TRUE(command.job_id.empty()) << line;
        EXPECT_NE(command.problem.find("job id is not a number"), std::string::npos)
            << line << ": " << command.problem;
    }
}

TEST(GuestControlLine, AnUnknownCommandIsNamed) {
    // "run" takes its id after one space: a tab makes another command, refused as unknown.
    const auto tabbed = parse_control_line("run\t1");
    EXPECT_EQ(tabbed.kind, ControlKind::invalid);
    EXPECT_EQ(tabbed.problem, "unknown command: run\t1");
    const auto command = parse_control_line("status");
    EXPECT_EQ(command.kind, ControlKind::invalid);
    EXPECT_EQ(command.problem, "unknown command: status");
}

}  // namespace
