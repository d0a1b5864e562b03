// `explore WORKFLOW` end to end: a real C program's planted crashes found, each kind once
// however many runs hit it, shrunk to the example with the change that matters and
// replayed; coverage feedback (the program built with --coverage here, the coverage
// collector on) reaching a crash behind three nested branches that edits in order miss;
// the corpus kept and resumed; the same feedback in the rounds of `run`'s repetitions.
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "cli_fixture.hpp"

namespace {

using nlohmann::json;

class Explore : public sbx::test::CliTest {
  protected:
    // The courier reader built with --coverage (its .gcda files go beside it).
    std::string covered_build() {
        std::string binary = dir_ + "/covered/courier_orders";
        std::filesystem::create_directories(dir_ + "/covered");
        const auto compiled = sbx::test::run_command(
            {"/usr/bin/gcc", "--coverage", "-O0", SBX_COURIER_ORDERS_SOURCE, "-o", binary}, {},
            dir_ + "/covered");
        EXPECT_EQ(compiled.exit_code, 0) << compiled.err;
        return binary;
    }

    void settings_for(const std::string &program, bool coverage) {
        write_settings(std::string(coverage ? "injectors: [+coverage_capture]\n"
                                              "metrics: [+coverage]\n"
                                            : "injectors: []\n") +
                       R"(workflows:
  - name: orders
    steps:
      - run: [")" + program +
                       R"("]
        stdin: "{{input.order}}"
        inputs:
          order: {type: json, example: '{"id": 1, "note": "hi", "shipping": {"method": "post", "days": 2}}'}
        rejects: {exit_codes: [2]}
)");
    }

    json explore(const std::vector<std::string> &extra) {
        std::vector<std::string> args = {"explore", "orders", "--json"};
        args.insert(args.end(), extra.begin(), extra.end());
        const auto result = runner(args);
        EXPECT_EQ(result.exit_code, 0) << result.out << result.err;
        return json::parse(result.out);
    }

    static const json *crash_named(const json &report, const std::string &words) {
        for (const json &crash : report["failures"]) {
            if (crash["summary"].get<std::string>().find(words) != std::string::npos) {
                return &crash;
            }
        }
        return nullptr;
    }
};

// The same feedback inside the robustness repetitions: `run` of the hostile scenario follows
// the inputs that reached new lines, round after round; the plain build, with no coverage
// data, keeps the strategy's own order. The report says what feedback did.
class RepetitionsFeedback : public Explore {
  protected:
    // `run` of the hostile scenario: its text report.
    std::string run_hostile(int runs) {
        const std::string preset =
            write_file("hostile.json",
                       R"({"SCENARIO_NAME": "hostile_input", "FAILURE_MODES": "hostile_input"})");
        const auto result = runner({"run", "-w", "orders", "--runs", std::to_string(runs), "--seed",
                                    "7", "--workers", "2", "--preset-file", preset});
        EXPECT_EQ(result.exit_code, 0) << result.out << result.err;
        return result.out;
    }

    // The repetitions of the newest session whose program stopped on the deep crash.
    std::vector<std::vector<std::string>> deep_crashes() {
        return query(
            "SELECT r.repetition, r.inputs, r.input_meta FROM runs r JOIN steps s ON s.run_id = "
            "r.id WHERE r.session_id = (SELECT MAX(id) FROM sessions) AND "
            "json_extract(s.result, '$.stderr') LIKE '%courier left without a note%' "
            "ORDER BY r.repetition");
    }
};

TEST_F(Explore, EachCrashIsReportedOnceShrunkToItsChangeAndReplayed) {
    settings_for(SBX_COURIER_ORDERS, false);
    const json report = explore({"--runs", "120"});
    EXPECT_EQ(report["coverage"], false);
    EXPECT_EQ(report["slot"], "order");
    EXPECT_EQ(report["runs"], 120);
    std::set<std::string> signatures;
    for (const json &crash : report["failures"]) {
        EXPECT_TRUE(signatures.insert(crash["signature"].get<std::string>()).second) << crash;
    }
    const json *negative = crash_named(report, "negative id used as an index");
    ASSERT_NE(negative, nullptr) << report.dump(2);
    EXPECT_GE((*negative)["hits"].get<int>(), 2) << "several inputs hit it: reported once";
    EXPECT_EQ((*negative)["summary"], "step 'step1': signal 6; negative id used as an index");
    const json &shrunk = (*negative)["shrunk"];
    EXPECT_EQ(shrunk["broken_by"], (json{{"order", {"id 1→-1"}}})) << shrunk;
    // The shrunk run replays the same way.
    const auto replay = runner({"replay", std::to_string(shrunk["run"].get<int64_t>())});
    EXPECT_EQ(replay.exit_code, 0) << replay.out << replay.err;
    // Three edits in a row, and no feedback to follow: not within these runs.
    EXPECT_EQ(crash_named(report, "courier left without a note"), nullptr);
    // The text report says the same.
    const auto text = runner({"explore", "orders", "--runs", "40", "--shrink-runs", "10"});
    EXPECT_NE(text.out.find("coverage feedback: off"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("broken by: id 1→-1 (input order)"), std::string::npos) << text.out;
}

TEST_F(Explore, CoverageFeedbackFollowsNewLinesToADeepCrashAndTheCorpusResumes) {
    settings_for(covered_build(), true);
    const std::string corpus = dir_ + "/corpus";
    const json first = explore({"--runs", "400", "--corpus", corpus, "--shrink-runs", "40"});
    EXPECT_EQ(first["coverage"], true);
    ASSERT_FALSE(first["corpus"].empty()) << "inputs that reached new lines are kept";
    const json *deep = crash_named(first, "courier left without a note");
    ASSERT_NE(deep, nullptr) << "the crash behind three branches, not found in 400 runs";
    EXPECT_EQ((*deep)["shrunk"]["broken_by"]["order"].size(), 3U) << (*deep)["shrunk"];
    // The corpus was kept, one file per input, and a second explore starts from it.
    std::size_t files = 0;
    for ([[maybe_unused]] const auto &file : std::filesystem::directory_iterator(corpus)) {
        ++files;
    }
    EXPECT_EQ(files, first["corpus"].size());
    const json again = explore({"--runs", "400", "--corpus", corpus, "--shrink-runs", "0"});
    const json *resumed = crash_named(again, "courier left without a note");
    ASSERT_NE(resumed, nullptr);
    EXPECT_LT((*resumed)["found_at"].get<int>(), (*deep)["found_at"].get<int>())
        << "the kept corpus is mutated first";
}

TEST_F(Explore, BadArgumentsAreRefusedNamingWhatToWrite) {
    settings_for(SBX_COURIER_ORDERS, false);
    const auto slot = runner({"explore", "orders", "--slot", "nope"});
    EXPECT_EQ(slot.exit_code, 2);
    EXPECT_NE(slot.err.find("--slot nope: workflow 'orders' has no such input; its inputs are "
                            "order"),
              std::string::npos)
        << slot.err;
    const auto runs = runner({"explore", "orders", "--runs", "0"});
    EXPECT_EQ(runs.exit_code, 2);
    EXPECT_NE(runs.err.find("--runs must be at least 1"), std::string::npos) << runs.err;
    const auto preset = runner({"explore", "orders", "--preset", "nonesuch"});
    EXPECT_EQ(preset.exit_code, 2);
    EXPECT_NE(preset.err.find("--preset nonesuch"), std::string::npos) << preset.err;
    std::filesystem::create_directories(dir_ + "/bad");
    std::ofstream(dir_ + "/bad/x.json") << "{";
    std::ofstream(dir_ + "/a-file") << "x";
    const auto file = runner({"explore", "orders", "--corpus", dir_ + "/a-file"});
    EXPECT_EQ(file.exit_code, 2);
    EXPECT_NE(file.err.find("is not a folder"), std::string::npos) << file.err;
    const auto corpus = runner({"explore", "orders", "--corpus", dir_ + "/bad"});
    EXPECT_EQ(corpus.exit_code, 2);
    EXPECT_NE(corpus.err.find("x.json is not JSON"), std::string::npos) << corpus.err;
}

TEST_F(RepetitionsFeedback, RoundsFollowNewLinesToADeepCrashThatTheStrategysOrderMisses) {
    settings_for(covered_build(), true);
    const std::string report = run_hostile(300);
    const auto crashes = deep_crashes();
    ASSERT_FALSE(crashes.empty()) << "the crash behind three branches, not found in 300 runs\n"
                                  << report;
    const int first = std::stoi(crashes[0][0]);
    EXPECT_GE(first, 13) << "the first round is the strategy's first-tried sets";
    // The crashing input is the example with the three changes that lead to it, each step
    // of the way an input that reached new lines.
    const json order = json::parse(json::parse(crashes[0][1])["order"].get<std::string>());
    EXPECT_EQ(order["shipping"]["method"], "courier") << order;
    EXPECT_EQ(order["shipping"]["days"], 0) << order;
    EXPECT_EQ(order["note"], "") << order;
    EXPECT_NE(crashes[0][2].find("\"edit\""), std::string::npos)
        << "a set made by feedback names its edit like any other: " << crashes[0][2];
    EXPECT_NE(report.find("; coverage feedback: "), std::string::npos) << report;
    const auto kept = query(
        "SELECT m.value FROM metrics m JOIN cells c ON c.id = m.cell_id WHERE c.flag = 'on' AND "
        "m.name = 'feedback_inputs'");
    ASSERT_EQ(kept.size(), 1U);
    EXPECT_GE(std::stod(kept[0][0]), 3) << "one input per branch joined the corpus";

    // The plain build gives no coverage data: the rest of the runs are the strategy's own
    // sets, which do not put the three changes together within these runs.
    settings_for(SBX_COURIER_ORDERS, false);
    const std::string plain = run_hostile(300);
    EXPECT_TRUE(deep_crashes().empty()) << plain;
    EXPECT_EQ(plain.find("coverage feedback"), std::string::npos) << plain;
}

}  // namespace
