// Where a run's inputs come from and what is kept of them: given sets (SANDBOX_INPUT_STUBS,
// input_stubs:) replace generation; generated sets are reused from the stub cache; what a
// hostile or misuse strategy did to a failed run's inputs becomes metrics by category and
// the run-scenarios report's "broken by" line; `replay` runs a recorded run again and
// `replay --print` gives shell lines that reproduce its steps; raw bytes (`$bytes` values)
// reach the target exactly, and replay and the shell lines give the same bytes again.
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "executor_parity.hpp"

namespace {

using nlohmann::json;
using Rows = std::vector<std::vector<std::string>>;

// A workflow with a string slot and a bounded int slot, for the strategies to fill.
constexpr const char *kSignupWorkflow = R"(
workflows:
  - name: signup
    steps:
      - run: [/bin/true]
        inputs:
          user_email: {type: string}
          age: {type: int, min: 18, max: 99}
)";

constexpr const char *kEchoWorkflow = R"(
workflows:
  - name: echo
    steps:
      - run: [/bin/sh, -c, 'echo "name=$1 n=$2"', echo, "{{input.name}}", "{{input.n}}"]
        inputs:
          name: {type: string, example: alice}
          n: {type: int, example: 3}
)";

class Inputs : public sbx::test::CliTest {
  protected:
    Rows inputs_of_last_session() {
        return query(
            "SELECT inputs FROM runs WHERE session_id = (SELECT max(id) FROM sessions) ORDER BY "
            "repetition");
    }
};

TEST_F(Inputs, SandboxInputStubsReplaceGenerationCycledOverTheRuns) {
    write_settings(std::string("presets: [{SCENARIO_NAME: only}]\n") + kEchoWorkflow);
    const auto result = sbx::test::run_command(
        {SBX_BINARY, "--config", settings_, "--data-dir", dir_ + "/data", "run", "--runs", "3"},
        {{"SANDBOX_INPUT_STUBS", R"([{"name": "bob", "n": 1}, {"name": "eve", "n": 2}])"}}, dir_);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(inputs_of_last_session(), (Rows{{R"({"n":1,"name":"bob"})"},
                                              {R"({"n":2,"name":"eve"})"},
                                              {R"({"n":1,"name":"bob"})"}}));
    EXPECT_EQ(query("SELECT DISTINCT json_extract(result, '$.stdout') FROM steps ORDER BY 1"),
              (Rows{{"name=bob n=1\n"}, {"name=eve n=2\n"}}));
}

TEST_F(Inputs, BadGivenInputSetsAreExitTwoNamingWhereTheyCameFrom) {
    write_settings(std::string("presets: [{SCENARIO_NAME: only}]\n") + kEchoWorkflow);
    for (const auto &[value, expected] : std::vector<std::pair<std::string, std::string>>{
             {R"([{"name": "bob",}])", "environment variable SANDBOX_INPUT_STUBS:1:"},
             {R"({"name": "bob"})", "must be a list of input sets, not object"},
             {R"([{"name": "bob"}, 7])", "item 2 is number, not an input set"},
             {"[]", "is an empty list"}}) {
        const auto result = sbx::test::run_command(
            {SBX_BINARY, "--config", settings_, "--data-dir", dir_ + "/data", "run"},
            {{"SANDBOX_INPUT_STUBS", value}}, dir_);
        EXPECT_EQ(result.exit_code, 2) << value << "\n" << result.err;
        EXPECT_NE(result.err.find("SANDBOX_INPUT_STUBS"), std::string::npos) << result.err;
        EXPECT_NE(result.err.find(expected), std::string::npos) << result.err;
    }
    write_settings(std::string("input_stubs: {name: bob}\npresets: [{SCENARIO_NAME: only}]\n") +
                   kEchoWorkflow);
    const auto yaml = runner({"run"});
    EXPECT_EQ(yaml.exit_code, 2);
    EXPECT_NE(yaml.err.find("settings.yaml:1:14: input_stubs must be a list of input sets"),
              std::string::npos)
        << yaml.err;
    EXPECT_FALSE(std::filesystem::exists(db_path())) << "nothing may be recorded";
}

TEST_F(Inputs, InputStubsInTheSettingsFileWorkToo) {
    write_settings(std::string("input_stubs: [{name: carol, n: 9}]\npresets: [{SCENARIO_NAME: "
                               "only}]\n") +
                   kEchoWorkflow);
    ASSERT_EQ(runner({"run", "--runs", "2"}).exit_code, 0);
    EXPECT_EQ(inputs_of_last_session(),
              (Rows{{R"({"n":9,"name":"carol"})"}, {R"({"n":9,"name":"carol"})"}}));
}

TEST_F(Inputs, GeneratedSetsAreKeptAndReusedFromTheStubCache) {
    write_settings(std::string("presets: [{SCENARIO_NAME: only, SANDBOX_STUB_STRATEGY: "
                               "random}]\n") +
                   kEchoWorkflow);
    ASSERT_EQ(runner({"run", "--runs", "2", "--seed", "5"}).exit_code, 0);
    const auto first = inputs_of_last_session();
    ASSERT_EQ(query("SELECT workflow, strategy, seed FROM stub_cache"),
              (Rows{{"echo", "random", "5"}}));
    // Prove the second command reads the cache rather than generating again: change the
    // kept sets, and the runs use the change.
    ASSERT_EQ(sbx::test::run_command(
                  {"/usr/bin/sqlite3", db_path(),
                   R"(UPDATE stub_cache SET response = '{"input_sets":[{"name":"kept","n":1},)"
                   R"({"name":"kept","n":2}],"meta":[null,null]}')"},
                  {}, dir_)
                  .exit_code,
              0);
    ASSERT_EQ(runner({"run", "--runs", "2", "--seed", "5"}).exit_code, 0);
    EXPECT_EQ(inputs_of_last_session(),
              (Rows{{R"({"n":1,"name":"kept"})"}, {R"({"n":2,"name":"kept"})"}}));
    // Another seed is another key; SANDBOX_STUB_CACHE=0 neither reads nor writes it.
    const auto fresh = sbx::test::run_command({SBX_BINARY, "--config", settings_, "--data-dir",
                                               dir_ + "/data", "run", "--runs", "2", "--seed", "5"},
                                              {{"SANDBOX_STUB_CACHE", "0"}}, dir_);
    ASSERT_EQ(fresh.exit_code, 0) << fresh.err;
    EXPECT_EQ(inputs_of_last_session(), first);
    EXPECT_EQ(query("SELECT count(*) FROM stub_cache"), (Rows{{"1"}}));
}

TEST_F(Inputs, AChainAltersTheSetsOfTheStrategyBeforeIt) {
    write_settings(R"(
presets:
  - {SCENARIO_NAME: plain, SANDBOX_STUB_STRATEGY: faker}
  - {SCENARIO_NAME: chained, SANDBOX_STUB_STRATEGY: "faker, misuse"}
)" + std::string(kSignupWorkflow));
    ASSERT_EQ(runner({"run", "--runs", "12", "--seed", "4"}).exit_code, 0);
    const auto rows = query(
        "SELECT presets.name, runs.repetition, runs.inputs, runs.input_meta FROM runs JOIN "
        "presets ON presets.id = runs.preset_id ORDER BY presets.name, runs.repetition");
    ASSERT_EQ(rows.size(), 24U);
    int misused = 0;
    for (size_t j = 0; j < 12; ++j) {
        const auto &chained = rows[j];  // "chained" sorts first
        const auto &plain = rows[12 + j];
        ASSERT_EQ(chained[0], "chained");
        const json faker_set = json::parse(plain[2]);
        const json set = json::parse(chained[2]);
        const json meta = chained[3].empty() ? json() : json::parse(chained[3]);
        ASSERT_TRUE(faker_set["user_email"].get<std::string>().find('@') != std::string::npos);
        // Every slot misuse left alone holds faker's value; the ones it misused are tagged.
        for (const auto &[slot, value] : faker_set.items()) {
            const bool tagged = meta.is_object() && meta["misuse"].contains(slot);
            misused += tagged ? 1 : 0;
            if (!tagged) {
                EXPECT_EQ(set[slot], value) << "set " << j << " slot " << slot;
            }
        }
    }
    EXPECT_GT(misused, 0) << "misuse altered nothing";
    EXPECT_EQ(query("SELECT DISTINCT strategy FROM stub_cache ORDER BY 1"),
              (Rows{{"faker"}, {"faker,misuse"}}));
}

// A hand-written preset that names an input failure mode gets that mode's inputs without
// also naming the stub strategy; a strategy it does name wins.
TEST_F(Inputs, FailureModesThatImplyInputsChooseTheirStrategies) {
    write_settings(R"(
stub_strategy: faker
presets:
  - {SCENARIO_NAME: misused, FAILURE_MODES: [user_misuse]}
  - {SCENARIO_NAME: drifted, FAILURE_MODES: "cpu_spike, hostile_input, schema_drift"}
  - {SCENARIO_NAME: named, FAILURE_MODES: [user_misuse], SANDBOX_STUB_STRATEGY: normal}
  - {SCENARIO_NAME: plain}
)" + std::string(kSignupWorkflow));
    const auto result = runner({"run", "--runs", "3", "--seed", "6"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(query("SELECT DISTINCT strategy FROM stub_cache ORDER BY 1"),
              (Rows{{"faker"}, {"hostile,legacy_schema"}, {"misuse"}, {"normal"}}));
    // The misused sets say so in their meta.
    const auto meta = query(
        "SELECT runs.input_meta FROM runs JOIN presets ON presets.id = runs.preset_id WHERE "
        "presets.name = 'misused'");
    ASSERT_EQ(meta.size(), 3U);
    const std::string all = meta[0][0] + meta[1][0] + meta[2][0];
    EXPECT_NE(all.find("\"misuse\""), std::string::npos) << all;
}

TEST_F(Inputs, AJsonSlotsSchemaReachesTheStrategies) {
    write_settings(R"(
presets: [{SCENARIO_NAME: only, SANDBOX_STUB_STRATEGY: faker}]
workflows:
  - name: order
    steps:
      - run: [/bin/true]
        inputs:
          order:
            type: json
            schema: {type: object, required: [id, email], properties: {id: {type: integer, minimum: 1, maximum: 50}, email: {type: string, format: email}}}
)");
    ASSERT_EQ(runner({"run", "--runs", "3", "--seed", "2"}).exit_code, 0);
    for (const auto &row : query("SELECT inputs FROM runs")) {
        const json order = json::parse(row[0])["order"];
        ASSERT_TRUE(order.is_object()) << row[0];
        EXPECT_TRUE(order["id"].is_number_integer()) << row[0];
        EXPECT_GE(order["id"].get<int>(), 1) << row[0];
        EXPECT_LE(order["id"].get<int>(), 50) << row[0];
        EXPECT_NE(order["email"].get<std::string>().find('@'), std::string::npos) << row[0];
    }
    write_settings(R"(
workflows:
  - name: order
    steps:
      - run: [/bin/true]
        inputs:
          order: {type: string, schema: {type: object}}
)");
    const auto refused = runner({"run"});
    EXPECT_EQ(refused.exit_code, 2);
    EXPECT_NE(refused.err.find("settings.yaml:7:41: a schema is only for json inputs"),
              std::string::npos)
        << refused.err;
}

// A target that fails (exit 3) on any input with a character a careless parser trips on.
constexpr const char *kFragileScript =
    "case \"$1\" in *[%\\<\\;\\$\\`\\|\\&\\'\\\"]*) exit 3;; esac\n";
constexpr const char *kFragileWorkflow = R"(
workflows:
  - name: fragile
    steps:
      - name: parse
        run: [/bin/sh, fragile.sh, "{{input.name}}"]
        inputs:
          name: {type: string, example: alice}
)";

TEST_F(Inputs, HostileFailuresAreCountedByCategoryReportedAndReplayable) {
    const std::string script = write_file("fragile.sh", kFragileScript);
    std::string workflow = kFragileWorkflow;
    workflow.replace(workflow.find("fragile.sh"), std::string("fragile.sh").size(), script);
    write_settings(std::string("scenarios: [{name: hostile_input}]\n") + workflow);
    const auto result = runner({"run-scenarios", "fragile", "--repetitions", "40", "--seed", "9",
                                "--json", "--workers", "2"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const json summary = json::parse(result.out);
    const json &hostile = summary["scenarios"]["hostile_input"];
    ASSERT_LT(hostile["roi"].get<double>(), 1.0) << "the fragile target never broke: " << hostile;
    ASSERT_GT(hostile["roi"].get<double>(), 0.0) << "every payload broke it: " << hostile;
    EXPECT_EQ(hostile["inputs"], "hostile");

    // Each failed run's categories, from what the strategy said of its inputs, are exactly
    // the tags its metrics carry; a passed run carries none.
    std::map<std::string, int> failed_by_category;
    int failed = 0;
    for (const auto &row :
         query("SELECT runs.id, runs.passed, runs.input_meta FROM runs JOIN presets ON presets.id "
               "= runs.preset_id WHERE presets.name = 'hostile_input' AND runs.flag = 'on' "
               "AND runs.session_id = 1")) {  // not the shrink sessions after it
        const json meta = json::parse(row[2]);
        const std::string category = meta["hostile"]["name"]["category"];
        const auto tags = query("SELECT name, value FROM metrics WHERE run_id = " + row[0] +
                                " AND name LIKE 'hostile_failures%' ORDER BY name");
        if (row[1] == "1") {
            EXPECT_EQ(tags, (Rows{{"hostile_failures", "0.0"}})) << row[0];
        } else {
            ++failed;
            ++failed_by_category[category];
            EXPECT_EQ(tags,
                      (Rows{{"hostile_failures", "1.0"}, {"hostile_failures." + category, "1.0"}}))
                << row[0];
        }
    }
    ASSERT_GT(failed, 0);
    json expected = json::object();
    for (const auto &[category, count] : failed_by_category) {
        expected["hostile"][category] = static_cast<double>(count) / 40;
    }
    EXPECT_EQ(hostile["broken_by"], expected);
    EXPECT_EQ(
        query("SELECT DISTINCT value FROM metrics JOIN runs ON runs.id = metrics.run_id WHERE "
              "metrics.name = 'inputs_tried'"),
        (Rows{{"1.0"}}));

    // The report's replay command re-runs the first failed run and gets the same crash.
    const std::string replay = hostile["replay"];
    // It names the settings and the data dir, so it works as printed from any folder.
    ASSERT_EQ(replay.rfind("sandbox-runner --config ", 0), 0U) << replay;
    ASSERT_NE(replay.find(" --data-dir "), std::string::npos) << replay;
    const std::string run_id = replay.substr(replay.rfind(" replay ") + 8);
    const auto again = runner({"replay", run_id, "--json"});
    ASSERT_EQ(again.exit_code, 0) << again.out << again.err;
    const json outcome = json::parse(again.out);
    EXPECT_TRUE(outcome["reproduced"]) << outcome;
    EXPECT_EQ(outcome["replay"]["status"], "RE") << outcome;
    EXPECT_EQ(query("SELECT inputs FROM runs WHERE id = " + run_id),
              query("SELECT inputs FROM runs WHERE id = " +
                    std::to_string(outcome["replay_run"].get<int64_t>())));

    // --print: shell lines that fail the same way on their own.
    const auto printed = runner({"replay", run_id, "--print"});
    ASSERT_EQ(printed.exit_code, 0) << printed.err;
    write_file("reproduce.sh", printed.out);
    const auto shell = sbx::test::run_command({"/bin/sh", dir_ + "/reproduce.sh"}, {}, dir_);
    EXPECT_EQ(shell.exit_code, 3) << printed.out << shell.err;

    // A robust target under the same payloads is not blamed.
    write_settings(std::string("scenarios: [{name: hostile_input}]\n") + R"(
workflows:
  - name: robust
    steps:
      - name: parse
        run: [/bin/sh, -c, 'printf "%s" "$1" > /dev/null', robust, "{{input.name}}"]
        inputs:
          name: {type: string, example: alice}
)");
    const auto robust = runner({"run-scenarios", "robust", "--repetitions", "40", "--seed", "9",
                                "--json", "--workers", "2"});
    ASSERT_EQ(robust.exit_code, 0) << robust.err;
    const json calm = json::parse(robust.out)["scenarios"]["hostile_input"];
    EXPECT_EQ(calm["roi"], 1.0) << calm;
    EXPECT_EQ(calm["broken_by"], json::object()) << calm;
    EXPECT_TRUE(calm["replay"].is_null()) << calm;
    EXPECT_TRUE(calm["passed"]) << calm;
}

TEST_F(Inputs, ReplayOfAMissingRunIsExitTwo) {
    write_settings(std::string("presets: [{SCENARIO_NAME: only}]\n") + kEchoWorkflow);
    ASSERT_EQ(runner({"run"}).exit_code, 0);
    const auto missing = runner({"replay", "999"});
    EXPECT_EQ(missing.exit_code, 2);
    EXPECT_NE(missing.err.find("has no run 999"), std::string::npos) << missing.err;
    const auto none = runner({"replay"});
    EXPECT_EQ(none.exit_code, 2);
    EXPECT_NE(none.err.find("name a run by its id"), std::string::npos) << none.err;
}

}  // namespace

class RawBytes : public sbx::test::ExecutorParityTest {};

TEST_F(RawBytes, ReachTheLocalTargetExactlyAndReplayTheSame) {
    const std::string run_id = expect_raw_bytes_reach_the_target("");
    ASSERT_FALSE(run_id.empty());

    const auto again = runner({"replay", run_id, "--json"});
    ASSERT_EQ(again.exit_code, 0) << again.out << again.err;
    const json outcome = json::parse(again.out);
    EXPECT_TRUE(outcome["reproduced"]) << outcome;
    const std::string replayed = std::to_string(outcome["replay_run"].get<int64_t>());
    EXPECT_EQ(
        query("SELECT json_extract(result, '$.stdout') FROM steps WHERE run_id = " + replayed),
        (Rows{{raw_bytes_stdout()}}));

    // --print: octal escapes, not raw bytes, and the same bytes when the lines run.
    const auto printed = runner({"replay", run_id, "--print"});
    ASSERT_EQ(printed.exit_code, 0) << printed.err;
    for (const char *escaped : {"a\\377\\000b\\303(\\012\"", "a\\377b\\303(\\012\""}) {
        EXPECT_NE(printed.out.find(escaped), std::string::npos) << escaped << "\n" << printed.out;
    }
    EXPECT_EQ(printed.out.find('\xff'), std::string::npos) << printed.out;
    write_file("reproduce.sh", printed.out);
    const auto shell = sbx::test::run_command({"/bin/sh", dir_ + "/reproduce.sh"}, {}, dir_);
    EXPECT_EQ(shell.exit_code, 0) << printed.out << shell.err;
    EXPECT_EQ(shell.out, raw_bytes_stdout()) << printed.out;
}
