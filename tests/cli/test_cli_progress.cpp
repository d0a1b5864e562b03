// The progress line: on a pseudo-terminal a long command shows runs done of planned,
// elapsed time, ETA, failures and the run in flight on stderr; log lines stay whole beside
// it; it is absent when stderr is a pipe, with --json and with --quiet; colours follow
// NO_COLOR.
#include <sys/wait.h>
#include <unistd.h>

#include <regex>
#include <string>
#include <vector>

#include "cli_fixture.hpp"
#include "pty_run.hpp"

namespace {

using sbx::test::run_in_pty;

class Progress : public sbx::test::CliTest {
  protected:
    void SetUp() override {
        CliTest::SetUp();
        // Slow enough for the line to be drawn; hostile_input fails every run.
        write_settings(R"(
extends: default
workflows:
  - name: slow
    steps:
      - run: [/bin/sh, -c, 'sleep 0.15; case "$SCENARIO_NAME" in hostile*) exit 1;; esac']
)");
    }
    // `global`: an option before the command.
    std::vector<std::string> command(const std::vector<std::string> &extra,
                                     const std::string &global = "--log-level=warn") const {
        std::vector<std::string> argv{SBX_BINARY,     "--config", settings_,       "--data-dir",
                                      dir_ + "/data", global,     "run-scenarios", "slow",
                                      "--workers",    "2"};
        argv.insert(argv.end(), extra.begin(), extra.end());
        return argv;
    }
};

// The line as drawn (built on first use: a regex constructor may throw).
const std::regex &progress_pattern() {
    static const std::regex pattern(R"(\r\x1b\[Kruns (\d+)/(\d+) \(\d+%\)  \d+:\d\d)");
    return pattern;
}

TEST_F(Progress, ATerminalSeesRunsElapsedEtaFailuresAndTheCurrentRun) {
    const auto result = run_in_pty(command({}, "--log-level=debug"), {"NO_COLOR=", "TERM=xterm"});
    ASSERT_EQ(result.exit_code, 0) << result.output;
    std::smatch match;
    ASSERT_TRUE(std::regex_search(result.output, match, progress_pattern())) << result.output;
    EXPECT_GT(std::stoi(match[2]), 0);
    EXPECT_NE(result.output.find("  ETA "), std::string::npos);
    EXPECT_NE(result.output.find("slow / hostile_input (on)"), std::string::npos);
    // Failures in red: NO_COLOR is empty, which means colours.
    EXPECT_TRUE(std::regex_search(result.output, std::regex(R"(\x1b\[31m\d+ failed\x1b\[0m)")))
        << result.output;
    // Every run is counted: the last line drawn says all of them.
    std::string last_done;
    std::string total;
    for (std::sregex_iterator it(result.output.begin(), result.output.end(), progress_pattern()),
         end;
         it != end; ++it) {
        last_done = (*it)[1];
        total = (*it)[2];
    }
    EXPECT_EQ(last_done, total);
    // Log lines stay whole: each starts on a fresh line or right after the line is erased,
    // never glued to the progress text.
    EXPECT_NE(result.output.find("debug"), std::string::npos) << result.output;
    EXPECT_FALSE(
        std::regex_search(result.output, std::regex(R"(runs \d+/\d+[^\r\n]*\[\d\d:\d\d:)")))
        << result.output;
    // The line is erased before the results are printed.
    const auto table = result.output.find("scenario ");
    ASSERT_NE(table, std::string::npos);
    EXPECT_EQ(result.output.find("runs ", table), std::string::npos);
}

TEST_F(Progress, NoColorMeansNoColour) {
    const auto result = run_in_pty(command({}), {"NO_COLOR=1", "TERM=xterm"});
    ASSERT_EQ(result.exit_code, 0) << result.output;
    ASSERT_TRUE(std::regex_search(result.output, progress_pattern())) << result.output;
    EXPECT_NE(result.output.find(" failed"), std::string::npos);
    EXPECT_EQ(result.output.find("\x1b[3"), std::string::npos) << result.output;
}

TEST_F(Progress, AbsentWithJsonQuietOrWithoutATerminal) {
    for (const auto &[extra, global] :
         std::vector<std::pair<std::vector<std::string>, std::string>>{{{"--json"}, ""},
                                                                       {{}, "--quiet"}}) {
        const auto result =
            run_in_pty(global.empty() ? command(extra) : command(extra, global), {});
        ASSERT_EQ(result.exit_code, 0) << result.output;
        EXPECT_FALSE(std::regex_search(result.output, progress_pattern())) << result.output;
        EXPECT_EQ(result.output.find("\x1b[K"), std::string::npos);
    }
    const auto piped = runner({"run-scenarios", "slow", "--workers", "2"});
    ASSERT_EQ(piped.exit_code, 0) << piped.err;
    EXPECT_EQ(piped.err.find("runs "), std::string::npos) << piped.err;
    EXPECT_EQ(piped.err.find('\x1b'), std::string::npos) << piped.err;
}

}  // namespace
