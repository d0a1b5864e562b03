// What `explore` prints of its crashes: each with its shrunk input (long values cut for the
// terminal) or why it has none, and the same as JSON.
#include <gtest/gtest.h>

#include "reports/explore_report.hpp"

namespace sbx::reports {
namespace {

using nlohmann::json;

engine::ShrunkCrash crash(int64_t run, const std::string &summary) {
    engine::ShrunkCrash entry;
    entry.crash.signature = {"00000000000000aa", summary};
    entry.crash.run_id = run;
    entry.crash.found_at = 7;
    entry.crash.hits = 3;
    return entry;
}

TEST(Shortened, CutsLongStringsAlsoInsideAJsonDocumentString) {
    const std::string long_text(130, 'x');
    EXPECT_EQ(shortened("short"), "short");
    EXPECT_EQ(shortened(long_text), std::string(40, 'x') + "… (130 bytes)");
    const json document = {{"name", long_text}, {"n", 1}};
    EXPECT_EQ(shortened(json{{"slot", document.dump()}}),
              json({{"slot", json{{"n", 1}, {"name", shortened(long_text)}}.dump()}}));
}

TEST(ExploreText, EachCrashWithItsMinimalInputOrWhyNone) {
    engine::ExploreOutcome outcome;
    outcome.slot = "body";
    outcome.runs = 50;
    outcome.coverage = true;
    outcome.runs_with_new_lines = 4;
    outcome.corpus = {json("a"), json("b")};
    outcome.accepted = 40;
    std::vector<engine::ShrunkCrash> crashes = {crash(11, "step 'parse': SIGABRT"),
                                                crash(12, "step 'parse': hang")};
    engine::RecordedShrink shrunk;
    shrunk.result.reproducible = true;
    shrunk.result.inputs = {{"body", "{}"}};
    shrunk.result.broken_by = {{"body", {"admin false→true", "id 1→-1"}}};
    shrunk.minimal_run = 20;
    crashes[0].shrunk = shrunk;
    const ExploreReport report{outcome, crashes, "wf", "sandbox-runner", 5};
    EXPECT_EQ(explore_text(report, "malicious_data", "corpus"),
              "explore wf: 50 runs under malicious_data, input body\n"
              "coverage feedback: on; 4 runs reached new lines, kept in the corpus (2)\n"
              "distinct failures: 2\n"
              "  1. step 'parse': SIGABRT\n"
              "     first at run 7 of 50 (3 runs failed this way)\n"
              "     broken by: admin false→true, id 1→-1 (input body)\n"
              "     minimal input: {\"body\":\"{}\"}\n"
              "     replay: sandbox-runner replay 20\n"
              "  2. step 'parse': hang\n"
              "     first at run 7 of 50 (3 runs failed this way)\n"
              "     not shrunk (--shrink-runs 0)\n"
              "     replay: sandbox-runner replay 12\n"
              "corpus: 2 new inputs kept in corpus (resume with --corpus corpus)\n"
              "recorded as session 5\n");

    const json out = explore_json(report, "hostile_input");
    EXPECT_EQ(out["preset"], "hostile_input");
    EXPECT_EQ(out["failures"].size(), 2u);
    EXPECT_EQ(out["failures"][0]["shrunk"]["replay"], "sandbox-runner replay 20");
    EXPECT_FALSE(out["failures"][1].contains("shrunk"));
    EXPECT_EQ(out["failures"][1]["replay"], "sandbox-runner replay 12");
}

TEST(ExploreText, SaysWhenNoInputWasAcceptedAndTheStrategyRanOut) {
    engine::ExploreOutcome outcome;
    outcome.slot = "body";
    outcome.runs = 3;
    outcome.first_refusal = "usage: parse FILE";
    outcome.exhausted = true;
    const std::vector<engine::ShrunkCrash> none;
    const std::string text = explore_text({outcome, none, "wf", "sandbox-runner", 1}, "p", "");
    EXPECT_NE(text.find("coverage feedback: off (no run gave line coverage"), std::string::npos);
    EXPECT_NE(text.find("none of the 3 runs was accepted: the program refused every input "
                        "(first: usage: parse FILE)"),
              std::string::npos);
    EXPECT_NE(text.find("the stub strategy had no new input left after 3 runs\n"),
              std::string::npos);
    EXPECT_EQ(text.find("corpus:"), std::string::npos);
}

}  // namespace
}  // namespace sbx::reports
