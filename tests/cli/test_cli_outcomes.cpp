// Outcome classes end to end: real parsers under the hostile stub, through the real binary,
// the local executor and SQLite. A clean rejection (an exit code the step declares in
// `rejects:`) passes a robustness scenario unless the step asks for `scoring: strict`; a
// crash fails it and the report names the input categories that crashed the target; a
// scenario whose fault has no way into the target is "n/a", neither pass nor fail.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include <sbx/bytes_value.hpp>

#include "cli_fixture.hpp"

namespace {

using nlohmann::json;

// jq from PATH; the test fails (never skips) when it is missing.
std::string find_jq() {
    const char *path = std::getenv("PATH");
    std::stringstream dirs(path != nullptr ? path : "");
    std::string dir;
    while (std::getline(dirs, dir, ':')) {
        std::string candidate = dir + "/jq";
        if (!dir.empty() && ::access(candidate.c_str(), X_OK) == 0) {
            return candidate;
        }
    }
    return "";
}

constexpr int kRuns = 26;
// The runs of the first run-scenarios session: a polyglot failure is shrunk in sessions of
// its own, whose candidate runs are not the matrix's.
const std::string kMatrixRuns =
    "runs.session_id = (SELECT min(id) FROM sessions WHERE command LIKE 'run-scenarios%')";  // every
                                                                                             // one
                                                                                             // of
                                                                                             // the
                                                                                             // hostile
                                                                                             // stub's
                                                                                             // 13
                                                                                             // categories
                                                                                             // twice

class OutcomeClasses : public sbx::test::CliTest {
  protected:
    // A one-step workflow that feeds {{input.doc}} on stdin, under normal and hostile_input.
    // `example` is a document the parser accepts: the normal scenario's input.
    void write_parser_workflow(const std::string &name, const std::string &program,
                               const std::string &example, const std::string &extra) {
        write_settings(R"(
scenarios:
  - {name: normal}
  - {name: hostile_input, preset: {FAILURE_MODES: hostile_input, SANDBOX_STUB_STRATEGY: hostile}}
workflows:
  - name: )" + name + R"(
    steps:
      - run: [")" + program +
                       R"(", -c, .]
        stdin: "{{input.doc}}"
        inputs: {doc: {type: string, example: ')" +
                       example + R"('}}
)" + extra);
    }
    json run_scenarios(const std::string &workflow) {
        auto result = runner({"run-scenarios", workflow, "--repetitions", std::to_string(kRuns),
                              "--seed", "7", "--json"});
        EXPECT_EQ(result.exit_code, 0) << result.err;
        return json::parse(result.out);
    }
    // outcome -> runs of the hostile on-cell, from the runs table.
    std::map<std::string, int> stored_outcomes() {
        std::map<std::string, int> counts;
        for (const auto &row : query("SELECT runs.outcome, count(*) FROM runs JOIN presets ON "
                                     "presets.id = runs.preset_id WHERE presets.name = "
                                     "'hostile_input' AND runs.flag = 'on' AND " +
                                     kMatrixRuns + " GROUP BY 1")) {
            counts[row[0]] = std::stoi(row[1]);
        }
        return counts;
    }
};

TEST_F(OutcomeClasses, JqRejectsHostileInputCleanlyAndPasses) {
    const std::string jq = find_jq();
    ASSERT_FALSE(jq.empty()) << "jq is not on PATH; tools/install-deps installs it";
    write_parser_workflow("jq", jq, R"({"a": 1})", "        rejects: {exit_codes: [1, 2, 4, 5]}\n");
    const json summary = run_scenarios("jq");
    const json &hostile = summary["scenarios"]["hostile_input"];
    EXPECT_EQ(summary["status"], "pass") << summary.dump(2);
    EXPECT_EQ(hostile["result"], "pass");
    EXPECT_EQ(hostile["robustness"], true);
    EXPECT_DOUBLE_EQ(hostile["roi"].get<double>(), 1.0);
    const json &outcomes = hostile["outcomes"];
    // jq refuses most hostile payloads (exit 2 to 5 by version) and never crashes on them.
    EXPECT_GT(outcomes["rejected"].get<int>(), kRuns / 2) << outcomes;
    EXPECT_EQ(outcomes["crashed"], 0);
    EXPECT_EQ(outcomes["hung"], 0);
    EXPECT_EQ(outcomes["failed"], 0);
    EXPECT_EQ(outcomes["accepted"].get<int>() + outcomes["rejected"].get<int>(), kRuns);
    EXPECT_TRUE(outcomes["by_category"].contains("malformed_json")) << outcomes;
    // The database says the same, run by run.
    const auto stored = stored_outcomes();
    EXPECT_EQ(stored.count("rejected") ? stored.at("rejected") : 0, outcomes["rejected"]);
    EXPECT_EQ(query("SELECT count(*) FROM runs WHERE flag = 'on' AND passed = 0 AND " +
                    kMatrixRuns)[0][0],
              "0");
    EXPECT_EQ(query("SELECT count(*) FROM steps WHERE outcome IS NULL")[0][0], "0");

    const auto text =
        runner({"run-scenarios", "jq", "--repetitions", std::to_string(kRuns), "--seed", "7"});
    ASSERT_EQ(text.exit_code, 0) << text.err;
    EXPECT_NE(text.out.find("hostile_input: jq " + std::to_string(outcomes["rejected"].get<int>()) +
                            " rejected cleanly, 0 crashed, 0 hung"),
              std::string::npos)
        << text.out;
}

TEST_F(OutcomeClasses, StrictScoringFailsEveryRejectionAsBefore) {
    const std::string jq = find_jq();
    ASSERT_FALSE(jq.empty()) << "jq is not on PATH; tools/install-deps installs it";
    write_parser_workflow("jq-strict", jq, R"({"a": 1})",
                          "        rejects: {exit_codes: [1, 2, 4, 5]}\n        scoring: strict\n");
    const json summary = run_scenarios("jq-strict");
    const json &hostile = summary["scenarios"]["hostile_input"];
    const int rejected = hostile["outcomes"]["rejected"].get<int>();
    ASSERT_GT(rejected, 0) << hostile;
    // Each rejection is a failed run, as without outcome classes.
    EXPECT_DOUBLE_EQ(hostile["roi"].get<double>(), 1.0 - static_cast<double>(rejected) / kRuns);
    EXPECT_EQ(hostile["result"], "fail");
    EXPECT_EQ(summary["status"], "situationally weak");
    EXPECT_EQ(summary["worst_scenario"], "hostile_input");
    EXPECT_EQ(query("SELECT count(*) FROM runs WHERE flag = 'on' AND passed = 0 AND " +
                    kMatrixRuns)[0][0],
              std::to_string(rejected));
    const auto reason = query(
        "SELECT json_extract(steps.result, '$.status'), steps.outcome FROM "
        "steps JOIN runs ON runs.id = steps.run_id WHERE runs.passed = 0 "
        "LIMIT 1");
    ASSERT_EQ(reason.size(), 1u);
    EXPECT_EQ(reason[0][1], "rejected");
}

TEST_F(OutcomeClasses, ACrashingParserFailsAndNamesTheCrashingCategories) {
    write_parser_workflow("crashy", SBX_CRASHY_PARSER, "plain words",
                          "        rejects: {exit_codes: [3]}\n");
    const json summary = run_scenarios("crashy");
    const json &hostile = summary["scenarios"]["hostile_input"];
    EXPECT_EQ(hostile["result"], "fail") << hostile;
    EXPECT_NE(summary["status"], "pass");
    EXPECT_EQ(summary["worst_scenario"], "hostile_input");
    EXPECT_EQ(summary["scenarios"]["normal"]["result"], "pass");

    // What crashed it, worked out from the stored inputs by the parser's own rule.
    std::map<std::string, int> expected;
    int crashes = 0;
    for (const auto &row : query("SELECT runs.inputs, runs.input_meta FROM runs JOIN presets ON "
                                 "presets.id = runs.preset_id WHERE presets.name = "
                                 "'hostile_input' AND runs.flag = 'on' AND " +
                                 kMatrixRuns)) {
        const json value = json::parse(row[0])["doc"];
        const std::string doc =
            value.is_string() ? value.get<std::string>()
                              : sbx::base64_decode(value["$bytes"].get<std::string>()).value();
        if (doc.size() > 4096 || doc.find("%n") != std::string::npos) {
            ++crashes;
            ++expected[json::parse(row[1])["hostile"]["doc"]["category"].get<std::string>()];
        }
    }
    ASSERT_GT(crashes, 0) << "no hostile payload of this seed triggers the parser's bug";
    const json &outcomes = hostile["outcomes"];
    EXPECT_EQ(outcomes["crashed"], crashes);
    EXPECT_GT(outcomes["rejected"].get<int>(), 0) << outcomes;
    EXPECT_EQ(outcomes["hung"], 0);
    std::map<std::string, int> reported;
    for (const auto &[category, by_class] : outcomes["by_category"].items()) {
        if (by_class.contains("crashed")) {
            reported[category] = by_class["crashed"].get<int>();
        }
    }
    EXPECT_EQ(reported, expected) << outcomes;
    // A crash is a signal the executor saw, not an exit code.
    EXPECT_EQ(query("SELECT DISTINCT steps.status FROM steps WHERE outcome = 'crashed'"),
              (std::vector<std::vector<std::string>>{{"SG"}}));
    // Only crashes fail the scenario: rejections pass.
    EXPECT_DOUBLE_EQ(hostile["roi"].get<double>(), 1.0 - static_cast<double>(crashes) / kRuns);

    const auto text =
        runner({"run-scenarios", "crashy", "--repetitions", std::to_string(kRuns), "--seed", "7"});
    ASSERT_EQ(text.exit_code, 0) << text.err;
    for (const auto &[category, n] : expected) {
        EXPECT_NE(text.out.find(category + " (" + std::to_string(n) + ")"), std::string::npos)
            << category << "\n"
            << text.out;
    }
    EXPECT_NE(text.out.find(std::to_string(crashes) + " crashed"), std::string::npos) << text.out;
}

TEST_F(OutcomeClasses, FaultsWithNoWayInAreNotApplicableNeverAPass) {
    // No input slot and no upstreams: hostile inputs, schema drift and upstream faults cannot
    // reach the target, whatever it does.
    write_settings(R"(
workflows:
  - name: closed
    steps:
      - run: [/bin/true]
  - name: text-only
    steps:
      - run: [/bin/sh, -c, 'test -n "$1"', sh, "{{input.word}}"]
        inputs: {word: {type: string, example: hello}}
)");
    const auto result = runner({"run-scenarios", "closed", "--json"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const json summary = json::parse(result.out);
    EXPECT_EQ(summary["not_applicable"], json({"hostile_input", "schema_drift", "flaky_upstream"}));
    for (const char *name : {"hostile_input", "schema_drift", "flaky_upstream"}) {
        SCOPED_TRACE(name);
        const json &scenario = summary["scenarios"][name];
        EXPECT_EQ(scenario["result"], "n/a");
        EXPECT_TRUE(scenario["passed"].is_null());
        EXPECT_TRUE(scenario["not_applicable"].is_string());
    }
    EXPECT_NE(summary["scenarios"]["hostile_input"]["not_applicable"].get<std::string>().find(
                  "no step passes an input slot"),
              std::string::npos);
    EXPECT_NE(summary["scenarios"]["flaky_upstream"]["not_applicable"].get<std::string>().find(
                  "no upstreams"),
              std::string::npos);
    EXPECT_EQ(summary["scenarios"]["normal"]["result"], "pass");
    EXPECT_EQ(summary["scenarios"]["concurrency_spike"]["result"], "pass");
    EXPECT_EQ(summary["status"], "pass");
    const auto worst = summary["worst_scenario"].get<std::string>();
    EXPECT_TRUE(worst == "normal" || worst == "concurrency_spike") << worst;
    EXPECT_EQ(query("SELECT scenario FROM scenario_scores WHERE not_applicable IS NOT NULL "
                    "ORDER BY position"),
              (std::vector<std::vector<std::string>>{
                  {"hostile_input"}, {"schema_drift"}, {"flaky_upstream"}}));
    EXPECT_EQ(query("SELECT count(*) FROM cells WHERE not_applicable IS NOT NULL")[0][0], "6");

    const auto text = runner({"run-scenarios", "closed"});
    ASSERT_EQ(text.exit_code, 0) << text.err;
    EXPECT_NE(text.out.find("hostile_input: n/a (no step passes an input slot"), std::string::npos)
        << text.out;
    EXPECT_NE(text.out.find("status: pass (n/a: hostile_input, schema_drift, flaky_upstream)"),
              std::string::npos)
        << text.out;
    EXPECT_EQ(text.out.find("<== WORST", text.out.find("hostile_input: n/a")), std::string::npos)
        << text.out;

    // A string slot lets hostile inputs in; schema drift still has no JSON to drift.
    const json partly = json::parse(runner({"run-scenarios", "text-only", "--json"}).out);
    EXPECT_EQ(partly["not_applicable"], json({"schema_drift", "flaky_upstream"}));
    EXPECT_NE(partly["scenarios"]["schema_drift"]["not_applicable"].get<std::string>().find(
                  "json input slot"),
              std::string::npos);

    // Rankings leave the n/a cells out.
    const auto ranked = runner({"rank-scenarios", dir_ + "/data/metrics.db", "--json"});
    ASSERT_EQ(ranked.exit_code, 0) << ranked.err;
    EXPECT_EQ(ranked.out.find("flaky_upstream"), std::string::npos) << ranked.out;
}

}  // namespace
