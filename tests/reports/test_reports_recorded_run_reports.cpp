// What `replay` and `shrink` print of a recorded run: its line, how it failed, what it
// shrank to (the `$bytes` values by JSON pointer), and a failure that did not come back.
#include <gtest/gtest.h>

#include "engine/input_shrink.hpp"
#include "reports/replay_report.hpp"
#include "reports/shrink_report.hpp"

namespace sbx::reports {
namespace {

using nlohmann::json;

store::RecordedRun failed_run(int64_t id) {
    store::RecordedRun run;
    run.id = id;
    run.workflow = "wf";
    run.preset_name = "hostile_input";
    run.flag = "on";
    run.failed_step = "parse";
    run.outcome = "crashed";
    run.inputs = {{"body", "0123456789"}};
    run.steps = {{"parse", "SG", false, 6, "", 134}};
    return run;
}

TEST(RecordedRunReports, TheRunLineAndHowItFailed) {
    const auto run = failed_run(42);
    EXPECT_EQ(run_outcome(run), "failed at step parse (SG)");
    EXPECT_EQ(failure_text(run), "failed at step parse (SG, crashed)");
    EXPECT_EQ(recorded_run_line(run, "passed"), "run 42 (wf under hostile_input, on): passed");
}

TEST(RecordedRunReports, ReplayTextSaysWhetherItEndedTheSameWay) {
    const auto original = failed_run(42);
    engine::Replayed replayed;
    replayed.session = 7;
    EXPECT_EQ(replay_text(original, replayed),
              "run 42 (wf under hostile_input, on): failed at step parse (SG)\n"
              "replay as run 0: not recorded\nNOT reproduced\n");
    replayed.again = failed_run(43);
    replayed.reproduced = true;
    EXPECT_EQ(replay_text(original, replayed),
              "run 42 (wf under hostile_input, on): failed at step parse (SG)\n"
              "replay as run 43: failed at step parse (SG)\nreproduced\n");
    const json out = replay_json(original, replayed);
    EXPECT_EQ(out["replay_run"], 43);
    EXPECT_EQ(out["replay"], json({{"passed", false}, {"failed_step", "parse"}, {"status", "SG"}}));
}

TEST(RecordedRunReports, BytesByPointerEscapesTheTokens) {
    const json inputs = {{"a/b", {{"c~d", engine::bytes_value("\x01z")}}},
                         {"list", json::array({1, engine::bytes_value("q\n")})}};
    EXPECT_EQ(bytes_by_pointer(inputs), json({{"/a~1b/c~0d", "\\x01z"}, {"/list/1", "q\\n"}}));
    EXPECT_EQ(bytes_by_pointer(json{{"plain", "text"}}), json::object());
}

TEST(RecordedRunReports, ShrinkTextFromItsReport) {
    const auto original = failed_run(42);
    engine::RecordedShrink shrunk;
    shrunk.session = 9;
    shrunk.minimal_run = 50;
    shrunk.result.reproducible = true;
    shrunk.result.runs = 12;
    shrunk.result.inputs = {{"body", "01"}};
    shrunk.result.preset_body = {{"SCENARIO_NAME", "hostile_input"}};
    shrunk.result.removed_fault_keys = {"API_LATENCY_MS"};
    shrunk.result.broken_by = {{"body", {"admin false→true"}}};
    const json report = shrink_report(original, shrunk, 100, "sandbox-runner");
    EXPECT_EQ(report["bytes_removed"], 8);
    EXPECT_EQ(report["replay"], "sandbox-runner replay 50");
    EXPECT_EQ(shrink_text(original, shrunk.result, report, 100),
              "run 42 (wf under hostile_input, on): failed at step parse (SG, crashed)\n"
              "shrunk in 12 runs: out of budget (--max-runs 100); smaller, but maybe not "
              "minimal\n"
              "input: 10 -> 2 bytes (8 removed)\n"
              "minimal input: {\"body\":\"01\"}\n"
              "fault keys removed: API_LATENCY_MS\n"
              "minimal preset: {\"SCENARIO_NAME\":\"hostile_input\"}\n"
              "broken by: admin false→true (slot body: its example with just this change)\n"
              "replay: sandbox-runner replay 50\n");
}

TEST(RecordedRunReports, NotReproducibleSaysHowItEndedAgain) {
    const auto original = failed_run(42);
    engine::RecordedShrink shrunk;
    shrunk.session = 9;
    shrunk.result.runs = 1;
    auto again = failed_run(43);
    again.passed = true;
    shrunk.first = again;
    EXPECT_EQ(not_reproducible_text(original, shrunk),
              "run 42 (wf under hostile_input, on): failed at step parse (SG, crashed)\n"
              "again as run 43: passed\n"
              "not reproducible: the run no longer fails the same way, so there is nothing to "
              "shrink\n");
    EXPECT_EQ(not_reproducible_json(original, shrunk)["replay_run"], 43);
}

}  // namespace
}  // namespace sbx::reports
