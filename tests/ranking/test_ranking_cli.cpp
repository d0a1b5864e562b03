// rank-scenarios, rank-synergy and rank-scenario-synergy end to end: on data dirs the real
// binary recorded with run-scenarios (targets whose ROI per scenario is known by
// construction, so every sum is exact), on hand-written roi_history.json files, and on
// arguments that are wrong.
#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli_fixture.hpp"

namespace {

using nlohmann::json;
using sbx::test::CommandResult;

// Two runs per cell: normal always passes (1.0), broken never (0.0), half fails on every
// odd count of its own counter (0.5). The counterfactual runs a no-op and never counts.
// One worker: runs executed at once would race on the counter files.
constexpr const char *kWorkflow = R"yaml(
workflows:
  - name: probe
    filesystem: host  # the counters live outside the workspace, across runs
    steps:
      - run: [/bin/sh, -c, 'f="$COUNTS/$SCENARIO_NAME"; n=$(( $(cat "$f" 2>/dev/null || echo 0) + 1 )); echo $n > "$f"; case "$SCENARIO_NAME:$((n % 2))" in broken:*|half:1) exit 1;; esac']
        env: {COUNTS: "COUNTS_DIR"}
)yaml";

class RankCommands : public sbx::test::CliTest {
  protected:
    void SetUp() override {
        CliTest::SetUp();
        write_settings("workers: 1\n");
        std::filesystem::create_directories(dir_ + "/counts");
    }
    // The real binary with this test's settings; the rank commands ignore --data-dir.
    CommandResult rank(const std::vector<std::string> &args) { return runner(args); }
    // run-scenarios on `probe` over `scenarios` (a YAML list) into <dir>/<data_dir>.
    void record(const std::string &data_dir, const std::string &scenarios) {
        std::string yaml = "scenarios: " + scenarios + kWorkflow;
        yaml.replace(yaml.find("COUNTS_DIR"), 10, dir_ + "/counts");
        const auto config = write_file(data_dir + ".yaml", yaml);
        const auto result = sbx::test::run_command(
            {SBX_BINARY, "--config", config, "--data-dir", dir_ + "/" + data_dir, "run-scenarios",
             "probe", "--repetitions", "2", "--seed", "3", "--workers", "1"},
            {}, dir_);
        ASSERT_EQ(result.exit_code, 0) << result.err << result.out;
    }
    std::string history(const std::string &name, const std::string &scenarios) {
        return write_file(
            name, R"({"format": "sandbox-runner/roi_history/1", "scenarios": )" + scenarios + "}");
    }
};

constexpr const char *kThree = "[{name: normal}, {name: half}, {name: broken}]";

TEST_F(RankCommands, RecordedRunsAddUpAcrossDataDirsWhicheverFileIsRead) {
    record("run1", kThree);
    record("run1", kThree);
    record("run2", "[{name: normal}, {name: half}]");
    const std::string expected =
        "normal ROI=3.000 (sum of 3 cells, mean 1.000)\n"
        "half ROI=1.500 (sum of 3 cells, mean 0.500)\n"
        "broken ROI=0.000 (sum of 2 cells, mean 0.000)\n";
    auto result = rank({"rank-scenarios", dir_ + "/run1", dir_ + "/run2"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(result.out, expected);
    EXPECT_EQ(result.err, "");
    // The histories beside the databases hold the same on-cell ROIs.
    result =
        rank({"rank-scenarios", dir_ + "/run1/roi_history.json", dir_ + "/run2/roi_history.json"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(result.out, expected);
    // A database file named directly, beside a history file (which records no workflow:
    // ranked together only when asked to).
    result = rank({"rank-scenarios", dir_ + "/run1/metrics.db", dir_ + "/run2/roi_history.json",
                   "--all-workflows"});
    EXPECT_EQ(result.out, expected);
    // The same file named twice counts once.
    result = rank({"rank-scenarios", dir_ + "/run1", dir_ + "/run2", dir_ + "/run1/metrics.db"});
    EXPECT_EQ(result.out, expected);

    result = rank({"rank-scenarios", dir_ + "/run1", dir_ + "/run2", "--json"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(json::parse(result.out), json::parse(R"([
        {"workflow": "probe", "scenario": "normal", "roi": 3.0, "cells": 3, "mean_roi": 1.0},
        {"workflow": "probe", "scenario": "half", "roi": 1.5, "cells": 3, "mean_roi": 0.5},
        {"workflow": "probe", "scenario": "broken", "roi": 0.0, "cells": 2, "mean_roi": 0.0}])"));
}

TEST_F(RankCommands, ADataDirMixesWithAHistoryFileAndTheLastSecurityScoreIsShown) {
    record("run1", kThree);
    const auto extra = history("extra.json", R"({
        "normal": {"roi": [0.25], "metrics": {"security_score": [0.5, 0.9]}},
        "extra": {"roi": [1.5, 0.5]}})");
    // A ranking per workflow, under a heading each: the history file records none.
    auto result = rank({"rank-scenarios", dir_ + "/run1", extra});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(result.out,
              "workflow not recorded (roi_history.json):\n"
              "  extra ROI=2.000 (sum of 2 cells, mean 1.000)\n"
              "  normal ROI=0.250 (sum of 1 cell, mean 0.250) security_score=0.900\n"
              "workflow probe:\n"
              "  normal ROI=1.000 (sum of 1 cell, mean 1.000)\n"
              "  half ROI=0.500 (sum of 1 cell, mean 0.500)\n"
              "  broken ROI=0.000 (sum of 1 cell, mean 0.000)\n");
    result = rank({"rank-scenarios", dir_ + "/run1", extra, "--all-workflows"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(result.out,
              "extra ROI=2.000 (sum of 2 cells, mean 1.000)\n"
              "normal ROI=1.250 (sum of 2 cells, mean 0.625) security_score=0.900\n"
              "half ROI=0.500 (sum of 1 cell, mean 0.500)\n"
              "broken ROI=0.000 (sum of 1 cell, mean 0.000)\n");
    result = rank({"rank-scenarios", extra, "--json"});
    EXPECT_EQ(json::parse(result.out), json::parse(R"([
        {"workflow": null, "scenario": "extra", "roi": 2.0, "cells": 2, "mean_roi": 1.0},
        {"workflow": null, "scenario": "normal", "roi": 0.25, "cells": 1, "mean_roi": 0.25,
         "security_score": 0.9}])"));
    result = rank({"rank-scenarios", extra, "--json", "--all-workflows"});
    EXPECT_FALSE(json::parse(result.out)[0].contains("workflow")) << result.out;
}

TEST_F(RankCommands, HandWrittenHistoriesGiveExactSumsTiesByName) {
    const auto first = history("first.json", R"({
        "scenario_a": {"roi": [1.0, 1.25], "metrics": {"security_score": [0.82]}},
        "scenario_b": {"roi": [2.1], "metrics": {"security_score": [0.9]}},
        "tied_z": {"roi": [0.5]}})");
    std::filesystem::create_directories(dir_ + "/run2");
    history("run2/roi_history.json", R"({
        "scenario_a": {"roi": [1.0]},
        "tied_y": {"roi": [0.25, 0.25]}})");
    const auto result = rank({"rank-scenarios", first, dir_ + "/run2"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(result.out,
              "scenario_a ROI=3.250 (sum of 3 cells, mean 1.083) security_score=0.820\n"
              "scenario_b ROI=2.100 (sum of 1 cell, mean 2.100) security_score=0.900\n"
              "tied_y ROI=0.500 (sum of 2 cells, mean 0.250)\n"
              "tied_z ROI=0.500 (sum of 1 cell, mean 0.500)\n");
}

TEST_F(RankCommands, SynergyRanksTheChosenMetricUnderEitherName) {
    const auto first = history("first.json", R"({
        "scenario_a": {"roi": [1], "metrics": {"synergy_roi": [0.125, 0.25],
                                              "synergy_security_score": [-0.5]}},
        "scenario_b": {"roi": [1], "metrics": {"synergy_roi": [0.5],
                                              "synergy_security_score": [0.25]}},
        "plain": {"roi": [1]}})");
    const auto second = history("second.json", R"({
        "scenario_a": {"roi": [1], "metrics": {"synergy_roi": [0.25]}}})");
    for (const char *command : {"rank-synergy", "rank-scenario-synergy"}) {
        SCOPED_TRACE(command);
        auto result = rank({command, first, second});
        ASSERT_EQ(result.exit_code, 0) << result.err;
        EXPECT_EQ(result.out,
                  "scenario_a synergy_roi=0.625\n"
                  "scenario_b synergy_roi=0.500\n");
        for (const char *metric : {"security_score", "synergy_security_score"}) {
            result = rank({command, first, second, "--metric", metric});
            ASSERT_EQ(result.exit_code, 0) << result.err;
            EXPECT_EQ(result.out,
                      "scenario_b synergy_security_score=0.250\n"
                      "scenario_a synergy_security_score=-0.500\n");
        }
        result = rank({command, first, "--json"});
        EXPECT_EQ(json::parse(result.out),
                  json::parse(R"([{"scenario": "scenario_b", "synergy_roi": 0.5},
                                  {"scenario": "scenario_a", "synergy_roi": 0.375}])"));
        result = rank({command, first, "--metric", "revenue"});
        EXPECT_EQ(result.exit_code, 2);
        EXPECT_EQ(result.err, std::string("sandbox-runner: ") + command +
                                  ": no RUN records synergy_revenue; recorded synergy metrics: "
                                  "synergy_roi, synergy_security_score (pass --metric with one "
                                  "of them, with or without synergy_)\n");
    }
}

TEST_F(RankCommands, WorkflowSynergyRecordedByTheRealBinaryRanks) {
    const auto config = write_file("synergy.yaml", R"(
presets:
  - {SCENARIO_NAME: calm}
  - {SCENARIO_NAME: harsh}
workflows:
  - name: steady
    steps: [{run: [/bin/sh, -c, 'exit 0']}]
  - name: touchy
    steps: [{run: [/bin/sh, -c, 'test "$SCENARIO_NAME" != harsh']}]
)");
    for (int i = 0; i < 2; ++i) {
        const auto result =
            sbx::test::run_command({SBX_BINARY, "--config", config, "--data-dir", dir_ + "/syn",
                                    "run", "--all-workflows", "--runs", "2"},
                                   {}, dir_);
        ASSERT_EQ(result.exit_code, 0) << result.err;
    }
    // harsh: the combined run fails with touchy: 0 − mean(1, 0) = −0.5, twice.
    const std::string expected = "calm synergy_roi=0.000\nharsh synergy_roi=-1.000\n";
    for (const char *command : {"rank-synergy", "rank-scenario-synergy"}) {
        SCOPED_TRACE(command);
        for (const std::string &run : {dir_ + "/syn", dir_ + "/syn/roi_history.json"}) {
            const auto result = rank({command, run});
            ASSERT_EQ(result.exit_code, 0) << result.err;
            EXPECT_EQ(result.out, expected);
        }
    }
}

TEST_F(RankCommands, WrongArgumentsExitTwoSayingWhatToPass) {
    auto result = rank({"rank-scenarios"});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_EQ(result.err,
              "sandbox-runner: rank-scenarios: no RUN given; pass a data dir written by "
              "sandbox-runner (its --data-dir), a roi_history.json or a metrics.db (one or "
              "more, e.g. run1 run2/roi_history.json)\n");
    EXPECT_EQ(result.out, "");

    const auto good = history("good.json", R"({"a": {"roi": [1]}})");
    result = rank({"rank-synergy", good, dir_ + "/nope"});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_EQ(result.err, "sandbox-runner: rank-synergy: RUN '" + dir_ +
                              "/nope' does not exist; pass a data dir written by sandbox-runner "
                              "(its --data-dir), a roi_history.json or a metrics.db\n");
    EXPECT_EQ(result.out, "") << "nothing is printed before every RUN is read";

    std::filesystem::create_directories(dir_ + "/empty");
    result = rank({"rank-scenario-synergy", dir_ + "/empty"});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_NE(result.err.find("is a directory without metrics.db or roi_history.json"),
              std::string::npos)
        << result.err;

    result = rank({"rank-scenarios", good, "--metric", "roi"});
    EXPECT_EQ(result.exit_code, 2) << "rank-scenarios takes no --metric";
    EXPECT_NE(result.err.find("rank-scenarios: unrecognised option '--metric'"), std::string::npos)
        << result.err;
    result = rank({"rank-synergy", good, "--metric", "two words"});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_NE(result.err.find("--metric 'two words' is not a metric name"), std::string::npos)
        << result.err;
    result = rank({"rank-scenarios", good, "--js"});
    EXPECT_EQ(result.exit_code, 2) << "no prefix guessing";
}

TEST_F(RankCommands, AMalformedHistoryExitsTwoWithFileLineAndColumn) {
    const auto good = history("good.json", R"({"a": {"roi": [1]}})");
    const auto broken = write_file("broken.json",
                                   "{\"format\": \"sandbox-runner/roi_history/1\",\n"
                                   "  \"scenarios\": {\"a\": {\"roi\": [1,]}}}\n");
    for (const char *command : {"rank-scenarios", "rank-synergy", "rank-scenario-synergy"}) {
        SCOPED_TRACE(command);
        const auto result = rank({command, good, broken});
        EXPECT_EQ(result.exit_code, 2);
        EXPECT_EQ(result.err.rfind(
                      "sandbox-runner: " + std::string(command) + ": " + broken + ":2:33: ", 0),
                  0u)
            << result.err;
        EXPECT_EQ(result.out, "");
    }
}

TEST_F(RankCommands, NothingRecordedIsAnEmptyRankingWithANote) {
    const auto empty = history("empty.json", "{}");
    auto result = rank({"rank-scenarios", empty});
    EXPECT_EQ(result.exit_code, 0);
    EXPECT_EQ(result.out, "");
    EXPECT_EQ(result.err, "rank-scenarios: no scenario recorded in the RUNs given\n");
    result = rank({"rank-synergy", empty, "--json"});
    EXPECT_EQ(result.exit_code, 0);
    EXPECT_EQ(result.out, "[]\n");
}

}  // namespace
