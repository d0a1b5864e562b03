// `shrink RUN_ID`: a recorded failed run cut down to the smallest input and fewest fault
// keys that still fail the same way, every candidate a real run of the real binary.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_fixture.hpp"

namespace {

using nlohmann::json;

// A 64 KiB document whose one member "mode": "%n" crashes sbx_mode_trigger; the rest,
// decoys included ("settings": {"mode": "safe"}, "%n" in other members), does not matter.
json planted_document() {
    json document = {{"settings", {{"mode", "safe"}, {"retries", 3}}}};
    for (int i = 0; document.dump().size() < 65536; ++i) {
        document["record" + std::to_string(i)] = {
            {"id", i},
            {"name", "customer number " + std::to_string(i)},
            {"note", i % 50 == 0 ? "printf-like %n here" : "nothing to see"},
            {"tags", {"a", "b", i}}};
    }
    document["mode"] = "%n";
    return document;
}

std::string trigger_workflow() {
    return std::string(R"(
presets: [{SCENARIO_NAME: plain}]
workflows:
  - name: parse
    steps:
      - name: parse
        run: [")") +
           SBX_MODE_TRIGGER + R"("]
        stdin: "{{input.doc}}"
        inputs:
          doc: {type: string, example: "{}"}
          label: {type: string, example: x}
        rejects: {exit_codes: [3]}
)";
}

class Shrink : public sbx::test::CliTest {
  protected:
    // Records one run with these inputs and returns its id.
    std::string record_run(const json &inputs) {
        const auto result =
            sbx::test::run_command({SBX_BINARY, "--config", settings_, "--data-dir", dir_ + "/data",
                                    "run", "--runs", "1", "--seed", "3"},
                                   {{"SANDBOX_INPUT_STUBS", json::array({inputs}).dump()}}, dir_);
        EXPECT_NE(result.exit_code, 2) << result.err;
        return query("SELECT max(id) FROM runs")[0][0];
    }
};

TEST_F(Shrink, APlantedTriggerInA64KiBInputShrinksToItsOneField) {
    write_settings(trigger_workflow());
    const json document = planted_document();
    const std::string run_id =
        record_run({{"doc", document.dump()}, {"label", std::string(300, 'L')}});
    ASSERT_EQ(query("SELECT passed, outcome FROM runs WHERE id = " + run_id),
              (std::vector<std::vector<std::string>>{{"0", "crashed"}}));

    const auto shrunk = runner({"shrink", run_id, "--json"});
    ASSERT_EQ(shrunk.exit_code, 0) << shrunk.out << shrunk.err;
    const json report = json::parse(shrunk.out);
    EXPECT_TRUE(report["minimal"]) << report;
    // Every slot stays; the document keeps its one member, still valid JSON text.
    EXPECT_EQ(report["inputs"], (json{{"doc", R"({"mode":"%n"})"}, {"label", ""}})) << report;
    EXPECT_GE(report["original_size"].get<size_t>(), 65536U);
    EXPECT_EQ(report["minimal_size"], 13);
    EXPECT_EQ(report["bytes_removed"],
              report["original_size"].get<size_t>() - report["minimal_size"].get<size_t>());
    EXPECT_EQ(report["fault_keys_removed"], json::array());
    EXPECT_EQ(report["failure"],
              (json{{"failed_step", "parse"}, {"status", "SG"}, {"outcome", "crashed"}}));
    // Every candidate is a recorded run of one session `shrink RUN_ID`.
    const int runs = report["runs"];
    EXPECT_GT(runs, 1);
    EXPECT_LE(runs, 500);
    EXPECT_EQ(query("SELECT count(*) FROM runs JOIN sessions ON sessions.id = runs.session_id "
                    "WHERE sessions.command = 'shrink " +
                    run_id + "'")[0][0],
              std::to_string(runs));
    const std::string minimal_run = std::to_string(report["minimal_run"].get<int64_t>());
    const std::string replay_line = report["replay"];
    EXPECT_EQ(replay_line.rfind("sandbox-runner --config ", 0), 0U) << replay_line;
    EXPECT_EQ(replay_line.substr(replay_line.rfind(" replay ")), " replay " + minimal_run);
    EXPECT_EQ(query("SELECT inputs FROM runs WHERE id = " + minimal_run)[0][0],
              report["inputs"].dump());

    // The shrunk run's replay fails the same way.
    const auto replay = runner({"replay", minimal_run, "--json"});
    ASSERT_EQ(replay.exit_code, 0) << replay.out << replay.err;
    const json again = json::parse(replay.out);
    EXPECT_TRUE(again["reproduced"]) << again;
    EXPECT_EQ(again["replay"]["status"], "SG") << again;
    EXPECT_EQ(again["replay"]["failed_step"], "parse") << again;

    // The text form says the same, with the replay line last.
    const auto text = runner({"shrink", run_id});
    ASSERT_EQ(text.exit_code, 0) << text.err;
    EXPECT_NE(text.out.find("failed at step parse (SG, crashed)"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find(": minimal"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("input: " + std::to_string(report["original_size"].get<size_t>()) +
                            " -> 13 bytes"),
              std::string::npos)
        << text.out;
    EXPECT_NE(text.out.find(R"(minimal input: {"doc":"{\"mode\":\"%n\"}","label":""})"),
              std::string::npos)
        << text.out;
    EXPECT_NE(text.out.find("fault keys removed: none"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("\nreplay: sandbox-runner --config "), std::string::npos) << text.out;

    // The printed line, pasted into a shell in another folder, reproduces the shrunk run.
    const auto printed = text.out.find("\nreplay: ");
    ASSERT_NE(printed, std::string::npos) << text.out;
    const std::string line =
        text.out.substr(printed + 9, text.out.find('\n', printed + 1) - (printed + 9));
    std::filesystem::create_directories(dir_ + "/elsewhere");
    const auto pasted = paste(line, dir_ + "/elsewhere");
    EXPECT_EQ(pasted.exit_code, 0) << line << '\n' << pasted.out << pasted.err;
    EXPECT_NE(pasted.out.find("reproduced"), std::string::npos) << pasted.out;
}

TEST_F(Shrink, AFailureFromAPolyglotNamesThePartItsShrunkFormBelongsTo) {
    write_settings(trigger_workflow());
    const json document = {{"mode", "%n"}, {"path", "../../etc/passwd"}, {"q", "' OR '1'='1"}};
    const std::string run_id = record_run({{"doc", document.dump()}, {"label", "x"}});
    // What the hostile stub writes for a polyglot, by hand: the payload and its parts.
    const std::string meta =
        R"({"hostile":{"doc":{"category":"polyglot","payload_index":0,"parts":)"
        R"({"format_string":"%s%n%x","path_traversal":"../../etc/passwd",)"
        R"("sql_injection":"' OR '1'='1","many_formats":"%n%n%n%n%n%n"}}}})";
    std::string quoted;  // an SQL literal: ' doubled
    for (const char c : meta) {
        quoted += c == '\'' ? std::string("''") : std::string(1, c);
    }
    ASSERT_EQ(sbx::test::run_command(
                  {"/usr/bin/sqlite3", db_path(),
                   "UPDATE runs SET input_meta = '" + quoted + "' WHERE id = " + run_id},
                  {}, dir_)
                  .exit_code,
              0);
    const auto shrunk = runner({"shrink", run_id, "--json"});
    ASSERT_EQ(shrunk.exit_code, 0) << shrunk.out << shrunk.err;
    const json report = json::parse(shrunk.out);
    EXPECT_EQ(report["inputs"]["doc"], R"({"mode":"%n"})") << report;
    EXPECT_EQ(report["belongs_to"], (json{{"doc", "format_string"}})) << report;
    const auto text = runner({"shrink", run_id});
    EXPECT_NE(text.out.find("\nbelongs to: format_string (slot doc)\n"), std::string::npos)
        << text.out;
}

TEST_F(Shrink, AFaultKeyThatDoesNotMatterIsDroppedAndTheOneThatDoesStays) {
    // The step outlasts TIMEOUT: the run hangs because of TIMEOUT alone; PIDS_LIMIT and
    // the passed-on MY_FLAG change nothing.
    write_settings(R"(
presets: [{SCENARIO_NAME: slow, TIMEOUT: 1s, PIDS_LIMIT: 64, MY_FLAG: "on"}]
workflows:
  - name: slow
    steps:
      - name: wait
        run: [/bin/sh, -c, 'sleep 4; echo "$1"', slow, "{{input.word}}"]
        inputs:
          word: {type: string, example: hello}
)");
    const std::string run_id = record_run({{"word", "hello"}});
    ASSERT_EQ(query("SELECT passed, outcome FROM runs WHERE id = " + run_id),
              (std::vector<std::vector<std::string>>{{"0", "hung"}}));
    const auto shrunk = runner({"shrink", run_id, "--json"});
    ASSERT_EQ(shrunk.exit_code, 0) << shrunk.out << shrunk.err;
    const json report = json::parse(shrunk.out);
    EXPECT_EQ(report["fault_keys_removed"], (json{"MY_FLAG", "PIDS_LIMIT"})) << report;
    EXPECT_EQ(report["preset"], (json{{"SCENARIO_NAME", "slow"}, {"TIMEOUT", "1s"}})) << report;
    EXPECT_EQ(report["inputs"], (json{{"word", ""}})) << report;
    EXPECT_TRUE(report["minimal"]) << report;
    const std::string minimal_run = std::to_string(report["minimal_run"].get<int64_t>());
    const auto replay = runner({"replay", minimal_run, "--json"});
    ASSERT_EQ(replay.exit_code, 0) << replay.out << replay.err;
    EXPECT_EQ(json::parse(replay.out)["replay"]["status"], "TO") << replay.out;
}

TEST_F(Shrink, ARunThatNoLongerFailsIsNotReproducibleExitOne) {
    const std::string script = write_file("target.sh", "exit 5\n");
    write_settings(std::string(R"(
presets: [{SCENARIO_NAME: plain}]
workflows:
  - name: flaky
    steps:
      - name: go
        run: [/bin/sh, )") +
                   script + R"(, "{{input.word}}"]
        inputs:
          word: {type: string, example: hello}
)");
    const std::string run_id = record_run({{"word", "hello"}});
    ASSERT_EQ(query("SELECT passed FROM runs WHERE id = " + run_id)[0][0], "0");
    write_file("target.sh", "exit 0\n");  // fixed since
    const auto shrunk = runner({"shrink", run_id});
    EXPECT_EQ(shrunk.exit_code, 1) << shrunk.out << shrunk.err;
    EXPECT_NE(shrunk.out.find("not reproducible"), std::string::npos) << shrunk.out;
    EXPECT_NE(shrunk.out.find(": passed"), std::string::npos) << shrunk.out;
    const auto as_json = runner({"shrink", run_id, "--json"});
    EXPECT_EQ(as_json.exit_code, 1);
    EXPECT_EQ(json::parse(as_json.out)["reproducible"], false) << as_json.out;
}

TEST_F(Shrink, ABadRunIdOrAPassedRunIsExitTwo) {
    write_settings(R"(
presets: [{SCENARIO_NAME: plain}]
workflows:
  - name: fine
    steps:
      - run: [/bin/true]
)");
    const std::string passed = record_run(json::object());
    const auto missing = runner({"shrink", "999"});
    EXPECT_EQ(missing.exit_code, 2);
    EXPECT_NE(missing.err.find("has no run 999"), std::string::npos) << missing.err;
    const auto none = runner({"shrink"});
    EXPECT_EQ(none.exit_code, 2);
    EXPECT_NE(none.err.find("name a failed run by its id"), std::string::npos) << none.err;
    const auto not_failed = runner({"shrink", passed});
    EXPECT_EQ(not_failed.exit_code, 2);
    EXPECT_NE(not_failed.err.find("passed; shrink needs a failed run"), std::string::npos)
        << not_failed.err;
    const auto no_budget = runner({"shrink", passed, "--max-runs", "0"});
    EXPECT_EQ(no_budget.exit_code, 2);
    EXPECT_NE(no_budget.err.find("--max-runs must be at least 1"), std::string::npos)
        << no_budget.err;
    EXPECT_EQ(query("SELECT count(*) FROM sessions WHERE command LIKE 'shrink%'")[0][0], "0");
}

TEST_F(Shrink, AnExhaustedBudgetSaysSoAndStillGivesAFailingRun) {
    write_settings(trigger_workflow());
    const std::string run_id =
        record_run({{"doc", planted_document().dump()}, {"label", "some label"}});
    const auto shrunk = runner({"shrink", run_id, "--max-runs", "5", "--json"});
    ASSERT_EQ(shrunk.exit_code, 0) << shrunk.out << shrunk.err;
    const json report = json::parse(shrunk.out);
    EXPECT_FALSE(report["minimal"]) << report;
    EXPECT_EQ(report["runs"], 5);
    const std::string minimal_run = std::to_string(report["minimal_run"].get<int64_t>());
    EXPECT_EQ(query("SELECT passed, outcome FROM runs WHERE id = " + minimal_run),
              (std::vector<std::vector<std::string>>{{"0", "crashed"}}));
    const auto text = runner({"shrink", run_id, "--max-runs", "5"});
    EXPECT_NE(text.out.find("out of budget (--max-runs 5)"), std::string::npos) << text.out;
}

}  // namespace

namespace {

// run-scenarios finds a format-string bug with the first polyglot and names what it was.
TEST_F(Shrink, RunScenariosNamesTheCategoryAPolyglotFailureShrinksTo) {
    write_settings(std::string(R"(
scenarios:
  - {name: normal}
  - {name: hostile_input}
workflows:
  - name: printf
    steps:
      - run: [")") +
                   SBX_PLANTED_BUGS + R"(", --bug, format_string, --mode, text]
        stdin: "{{input.text}}"
        inputs: {text: {type: string, example: hello}}
)");
    const auto result = runner({"run-scenarios", "printf", "--seed", "5", "--json"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const json hostile = json::parse(result.out)["scenarios"]["hostile_input"];
    EXPECT_EQ(hostile["result"], "fail");
    EXPECT_TRUE(hostile["broken_by"]["hostile"].contains("polyglot")) << hostile["broken_by"];
    const json &shrunk = hostile["shrunk"];
    ASSERT_TRUE(shrunk.is_object()) << hostile;
    EXPECT_EQ(shrunk["category"], "format_string") << shrunk;
    const std::string minimal = shrunk["inputs"]["text"].get<std::string>();
    EXPECT_TRUE(minimal == "%n" || minimal == "%s") << minimal;
    EXPECT_EQ(shrunk["size"], 2);
    EXPECT_EQ(shrunk["minimal"], true);
    // The shrunk run fails the same way again.
    const auto replay = runner({"replay", std::to_string(shrunk["run"].get<int64_t>())});
    EXPECT_EQ(replay.exit_code, 0) << replay.out << replay.err;

    const auto text = runner({"run-scenarios", "printf", "--seed", "5"});
    EXPECT_NE(text.out.find("the polyglot shrank to format_string (2 bytes,"), std::string::npos)
        << text.out;
    // --shrink-runs 0 leaves it alone.
    const auto off = runner({"run-scenarios", "printf", "--seed", "5", "--shrink-runs", "0"});
    EXPECT_EQ(off.out.find("the polyglot shrank"), std::string::npos) << off.out;
}

}  // namespace
