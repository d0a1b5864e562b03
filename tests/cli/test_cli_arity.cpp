// How many arguments a step's target gets: a `run` item that is exactly {{input.NAME}}
// gives none when the input set lacks NAME (or holds null) and one per item of a `list`
// slot; a missing program is the run's XX, not a host error; and under user_misuse the
// misuse stub's missing_required and wrong_arity reach the target as another argument
// count (the planted fewer/more-arguments bugs of tools/bench/misuse_target.cpp crash).
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_fixture.hpp"

namespace {

using nlohmann::json;
using Rows = std::vector<std::vector<std::string>>;

class Arity : public sbx::test::CliTest {};

TEST_F(Arity, AbsentSlotsOmitTheirItemAndListSlotsSpread) {
    // The target prints its argument count and each argument between bars.
    write_settings(R"(
presets: [{SCENARIO_NAME: only}]
input_stubs:
  - {opt: o, files: [a, b c], doc: [1, x]}
  - {files: [], doc: null}
  - {opt: null, files: [3, true, {k: 1}], doc: {}}
workflows:
  - name: args
    steps:
      - run: [/bin/sh, -c, 'printf "%s|" "$#" "$@"', sh, "{{input.opt}}", "{{input.files}}", "x{{input.opt}}", "{{input.doc}}"]
        inputs:
          opt: {type: string, example: o}
          files: {type: list, example: [a, b]}
          doc: {type: json, example: [1, 2]}
)");
    const auto result = runner({"run", "--runs", "3"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(query("SELECT json_extract(s.result, '$.stdout') FROM steps s JOIN runs r ON "
                    "r.id = s.run_id ORDER BY r.repetition"),
              (Rows{// A list slot spreads; a json slot's array stays one item of JSON text.
                    {R"(5|o|a|b c|xo|[1,"x"]|)"},
                    // Absent or null: no item of its own, "" inside a longer item.
                    {"1|x|"},
                    {R"(5|3|true|{"k":1}|x|{}|)"}}));
}

TEST_F(Arity, AProgramItemThatGivesNothingIsTheRunsXxNotAHostError) {
    write_settings(R"(
presets: [{SCENARIO_NAME: only}]
input_stubs: [{prog: /bin/echo}, {}, {prog: []}]
workflows:
  - name: prog
    steps:
      - name: call
        run: ["{{input.prog}}", hello]
        inputs: {prog: {type: list, example: [/bin/echo]}}
)");
    const auto result = runner({"run", "--runs", "3"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const auto rows = query(
        "SELECT s.status, json_extract(s.result, '$.stdout'), json_extract(s.result, "
        "'$.error') FROM steps s JOIN runs r ON r.id = s.run_id ORDER BY r.repetition");
    ASSERT_EQ(rows.size(), 3U);
    EXPECT_EQ(rows[0][0], "OK");
    EXPECT_EQ(rows[0][1], "hello\n");
    for (size_t i = 1; i < 3; ++i) {
        // `hello` must not become the program: the step fails, saying why.
        EXPECT_EQ(rows[i][0], "XX") << i;
        EXPECT_NE(rows[i][2].find("the program item \"{{input.prog}}\" of step 'call' gave no "
                                  "argv item"),
                  std::string::npos)
            << rows[i][2];
    }
    EXPECT_NE(result.out.find("call: status XX"), std::string::npos) << result.out;
}

TEST_F(Arity, UserMisuseFindsTheMissingAndTheExtraArgument) {
    std::string yaml = R"(
presets: [{SCENARIO_NAME: user_misuse, SANDBOX_STUB_STRATEGY: misuse}]
workflows:
)";
    for (const char *bug : {"fewer_args", "more_args"}) {
        yaml += std::string("  - name: ") + bug + "\n    steps:\n      - run: [" +
                SBX_MISUSE_TARGET + ", " + bug +
                R"(, "{{input.count}}", "{{input.mode}}", "{{input.path}}", "{{input.files}}"]
        rejects: {exit_codes: [2]}
        inputs:
          count: {type: int, example: 3, min: 1, max: 10}
          mode: {type: enum, values: [fast, slow], example: fast}
          path: {type: path, example: out}
          files: {type: list, example: [a.txt, b.txt]}
)";
    }
    write_settings(yaml);
    for (const char *bug : {"fewer_args", "more_args"}) {
        const auto result = runner({"run", "--workflow", bug, "--runs", "100", "--seed", "1"});
        ASSERT_EQ(result.exit_code, 0) << result.err;
    }
    // What misuse did to each run whose target crashed: (workflow, kind, slot, items sent).
    bool missing = false;
    bool more = false;
    for (const auto &row :
         query("SELECT r.workflow, json_extract(t.value, '$.kind'), t.key, r.inputs FROM runs r, "
               "json_each(json_extract(r.input_meta, '$.misuse')) t WHERE r.outcome = 'crashed'")) {
        const json inputs = json::parse(row[3]);
        SCOPED_TRACE(row[0] + ": " + row[1] + " of " + row[2] + " in " + row[3]);
        if (row[1] == "missing_required") {
            EXPECT_FALSE(inputs.contains(row[2])) << "a missing slot is left out of the set";
            missing = missing || row[0] == "fewer_args";
        }
        if (row[0] == "more_args" && row[1] == "wrong_arity" && row[2] == "files") {
            more = more || inputs["files"].size() > 2;
        }
    }
    EXPECT_TRUE(missing) << "no run with a required slot left out crashed fewer_args";
    EXPECT_TRUE(more) << "no run with extra list items crashed more_args";
}

}  // namespace
