// run-scenarios end to end, on targets whose success rate per scenario is known by
// construction: each run of the step bumps a per-scenario counter file and fails on a
// fixed pattern of counts, so the ROI of every cell, every delta, the worst scenario and
// the status are exact whatever the number of workers (the counter is bumped under flock;
// which repetition draws which count may vary, how many fail does not). The counterfactual
// runs `true` and always passes.
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "cli_fixture.hpp"

namespace {

using nlohmann::json;

// Four runs per cell. normal: all pass (1.0); concurrency_spike: 8 copies per run, so 32
// executions, every 4th fails (0.75);
// hostile_input: runs 2 and 4 fail (0.5); schema_drift: all fail (0); flaky_upstream:
// all pass (1.0).
// The step takes a JSON document (as a file it ignores) and, under flaky_upstream, sends a
// line to the upstream the workflow declares (whose answer it ignores): so hostile inputs,
// schema drift and upstream faults all reach it, and no scenario is "not applicable".
constexpr const char *kCountingStep = R"yaml(
      - name: count
        run: [/bin/bash, -c, 'f="$COUNTS/$SCENARIO_NAME"; exec 9>"$f.lock"; flock 9; n=$(( $(cat "$f" 2>/dev/null || echo 0) + 1 )); echo $n > "$f"; flock -u 9; if [ "$SCENARIO_NAME" = flaky_upstream ]; then (exec 8<>"/dev/tcp/${SANDBOX_UPSTREAM_API%:*}/${SANDBOX_UPSTREAM_API##*:}" && echo ping >&8 && timeout 5 cat <&8) >/dev/null 2>&1; fi; case "$SCENARIO_NAME:$n:$((n % 4))" in concurrency_spike:*:0|hostile_input:2:*|hostile_input:4:*|schema_drift:*) exit 1;; esac']
        env: {COUNTS: "COUNTS_DIR"}
        files: {doc.json: "{{input.doc}}"}
        inputs: {doc: {type: json, example: {id: 1, name: Ada}}}
)yaml";
constexpr const char *kUpstream =
    "    upstreams:\n      - {name: api, listen: \"127.0.0.1:0\", target: \"127.0.0.1:9\"}\n";

class ScenariosCommand : public sbx::test::CliTest {
  protected:
    void SetUp() override {
        CliTest::SetUp();
        counts_ = dir_ + "/counts";
        std::filesystem::create_directories(counts_);
    }
    std::string counting_workflow(const std::string &name, const std::string &extra = "") {
        std::string step = kCountingStep;
        step.replace(step.find("COUNTS_DIR"), 10, counts_);
        // `filesystem: host`: the counts live outside the workspace, across runs.
        return "  - name: " + name + "\n" + extra + kUpstream +
               "    filesystem: host\n    steps:" + step;
    }
    json run_json(const std::vector<std::string> &args) {
        auto result = runner(args);
        EXPECT_EQ(result.exit_code, 0) << result.err;
        return json::parse(result.out);
    }
    std::string counts_;
};

TEST_F(ScenariosCommand, ExactDeltasWorstStatusAndTipsOnKnownTargets) {
    // Every scenario at --repetitions, so the counting target's deltas are exact fractions.
    write_settings("robustness_repetitions: 1\nworkflows:\n" +
                   counting_workflow("counting", "    id: 42\n"));
    // The workflow is named by its numeric id, as in the seeds' `--run-scenarios 42`.
    const json summary =
        run_json({"run-scenarios", "42", "--repetitions", "4", "--seed", "1", "--json"});
    EXPECT_EQ(summary["workflow"], "counting");
    EXPECT_EQ(summary["mode"], "counterfactual");
    EXPECT_EQ(summary["order"], json({"normal", "concurrency_spike", "hostile_input",
                                      "schema_drift", "flaky_upstream"}));
    const auto &s = summary["scenarios"];
    const std::map<std::string, double> roi = {{"normal", 1.0},
                                               {"concurrency_spike", 0.75},
                                               {"hostile_input", 0.5},
                                               {"schema_drift", 0.0},
                                               {"flaky_upstream", 1.0}};
    for (const auto &[name, expected] : roi) {
        SCOPED_TRACE(name);
        EXPECT_DOUBLE_EQ(s[name]["roi"].get<double>(), expected);
        EXPECT_DOUBLE_EQ(s[name]["roi_off"].get<double>(), 1.0);
        EXPECT_DOUBLE_EQ(s[name]["roi_delta"].get<double>(), expected - 1.0);
        EXPECT_EQ(s[name]["runs"], 4);
        EXPECT_EQ(s[name]["passed"], expected >= 1.0);
    }
    EXPECT_EQ(summary["worst_scenario"], "schema_drift");
    EXPECT_EQ(summary["status"], "fail");  // three scenarios fail
    EXPECT_EQ(summary["not_applicable"], json::array());
    // An exit code the step does not declare as a rejection fails as before.
    EXPECT_EQ(s["hostile_input"]["outcomes"]["failed"], 2);
    EXPECT_EQ(s["hostile_input"]["outcomes"]["accepted"], 2);
    EXPECT_EQ(summary["tips"],
              json({"concurrency_spike: add locking or queueing", "hostile_input: sanitize inputs",
                    "schema_drift: tighten schema validation"}));
    // raroi with the standard impact 0.5, rollback_p = failure rate = 1 − roi, no history;
    // hostile_input's failed runs (hostile_failures 0.5, rounded up to 1) halve the
    // penalty factor: 0.5 · (1 − 0.5 · 0.5) · 1 / (1 + 1) = 0.1875 against 1.0 off.
    EXPECT_DOUBLE_EQ(s["hostile_input"]["raroi"].get<double>(), 0.1875);
    EXPECT_DOUBLE_EQ(s["hostile_input"]["raroi_delta"].get<double>(), -0.8125);
    // concurrency_spike: 0.75 · (1 − 0.25 · 0.5) = 0.65625.
    EXPECT_DOUBLE_EQ(s["concurrency_spike"]["raroi"].get<double>(), 0.65625);

    // The exports and the database say the same.
    std::ifstream deltas_file(dir_ + "/data/scenario_deltas.json");
    const json deltas = json::parse(deltas_file);
    EXPECT_DOUBLE_EQ(deltas["hostile_input"]["roi_delta"].get<double>(), -0.5);
    EXPECT_EQ(deltas["schema_drift"]["worst"], true);
    EXPECT_EQ(deltas["normal"]["worst"], false);
    std::ifstream scorecard_file(dir_ + "/data/scorecard_counting.json");
    EXPECT_EQ(json::parse(scorecard_file)["status"], "fail");
    const auto rows =
        query("SELECT scenario, roi_delta, failed, worst FROM scenario_scores ORDER BY position");
    ASSERT_EQ(rows.size(), 5u);
    EXPECT_EQ(rows[3], (std::vector<std::string>{"schema_drift", "-1.0", "1", "1"}));
    // 5 × 2 cells × 4: the matrix's session, not the shrink session that may follow it (a
    // failing hostile input is shrunk when the run that drew a failing count had one that
    // can be; which run draws which count depends on timing).
    EXPECT_EQ(query("SELECT count(*) FROM runs WHERE session_id = 1")[0][0], "40");
    std::ifstream history_file(dir_ + "/data/roi_history.json");
    const json history = json::parse(history_file);
    EXPECT_EQ(history["scenarios"]["hostile_input"]["roi_delta"], json({-0.5}));
}

TEST_F(ScenariosCommand, RobustnessScenariosTryEveryCategoryByDefaultAndSaySo) {
    // A target that takes any text: the question is only how many inputs were tried.
    write_settings(R"(
scenarios:
  - {name: normal}
  - {name: hostile_input}
workflows:
  - name: cat
    steps:
      - run: [/bin/cat]
        stdin: "{{input.text}}"
        inputs: {text: {type: string, example: fine}}
)");
    const json summary = run_json({"run-scenarios", "cat", "--seed", "3", "--json"});
    EXPECT_EQ(summary["repetitions"], 1);
    EXPECT_EQ(summary["robustness_repetitions"], 13);
    EXPECT_EQ(summary["scenarios"]["normal"]["runs"], 1);
    const json &hostile = summary["scenarios"]["hostile_input"];
    EXPECT_EQ(hostile["runs"], 13) << "one pass of the hostile stub's first-tried inputs";
    // The categories tried are those in the recorded meta, polyglot parts included.
    std::set<std::string> tried;
    int64_t reachable = 0;
    for (const auto &row : query("SELECT runs.input_meta FROM runs JOIN presets ON presets.id = "
                                 "runs.preset_id WHERE presets.name = 'hostile_input' AND "
                                 "runs.flag = 'on'")) {
        const json entry = json::parse(row[0])["hostile"]["text"];
        tried.insert(entry["category"].get<std::string>());
        const json parts = entry.value("parts", json::object());
        for (const auto &[part, text] : parts.items()) {
            tried.insert(part);
        }
    }
    const json &counted = hostile["inputs_tried"]["hostile"];
    EXPECT_EQ(counted["tried"], tried.size()) << counted;
    reachable = counted["of"].get<int64_t>();
    EXPECT_GE(reachable, static_cast<int64_t>(tried.size()));
    EXPECT_GE(tried.size(), 12U) << "13 inputs reach most categories through polyglots";

    const auto text = runner({"run-scenarios", "cat", "--seed", "3"});
    ASSERT_EQ(text.exit_code, 0) << text.err;
    EXPECT_NE(text.out.find("x 1 runs (robustness and fault scenarios: 13)"), std::string::npos)
        << text.out;
    EXPECT_NE(text.out.find("tried 13 inputs, " + std::to_string(tried.size()) + " of " +
                            std::to_string(reachable) + " hostile categories"),
              std::string::npos)
        << text.out;

    // A larger --repetitions wins; a bad setting is refused where it is written.
    EXPECT_EQ(run_json({"run-scenarios", "cat", "--repetitions", "20",
                        "--json"})["scenarios"]["hostile_input"]["runs"],
              20);
    write_settings("robustness_repetitions: 0\nworkflows: []\n");
    const auto bad = runner({"run-scenarios"});
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_NE(bad.err.find(":1:"), std::string::npos) << bad.err;
    EXPECT_NE(bad.err.find("robustness_repetitions must be a whole number"), std::string::npos)
        << bad.err;
}

TEST_F(ScenariosCommand, TextReportMarksTheWorstScenario) {
    write_settings("robustness_repetitions: 1\nworkflows:\n" + counting_workflow("counting"));
    const auto result = runner({"run-scenarios", "counting", "--repetitions", "4", "--seed", "1"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.out.find("normal: +0.000\n"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("hostile_input: -0.500\n"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("schema_drift: -1.000 <== WORST\n"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("status: fail"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("- schema_drift: tighten schema validation"), std::string::npos);
}

TEST_F(ScenariosCommand, NothingIsMarkedWorstWhenEveryScenarioPassed) {
    write_settings(
        "scenarios: [{name: normal}, {name: later}]\n"
        "workflows:\n  - name: fine\n    steps:\n      - run: [/bin/true]\n");
    const auto result = runner({"run-scenarios", "fine", "--repetitions", "2", "--seed", "1"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.out.find("normal: +0.000\n"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("status: pass"), std::string::npos) << result.out;
    EXPECT_EQ(result.out.find("WORST"), std::string::npos) << result.out;
    // The machine-readable report still names the lowest delta.
    EXPECT_EQ(run_json({"run-scenarios", "fine", "--repetitions", "2", "--seed", "1",
                        "--json"})["worst_scenario"],
              "normal");
}

TEST_F(ScenariosCommand, OneFailingScenarioIsSituationallyWeakAndGatesExitOne) {
    // Only schema_drift fails: the others pass every run.
    write_settings(R"(
scenarios:
  - {name: normal}
  - {name: schema_drift}
  - {name: calm, preset: {GREETING: hi}}
workflows:
  - name: picky
    steps:
      - run: [/bin/sh, -c, 'test "$SCENARIO_NAME" != schema_drift']
        files: {doc.json: "{{input.doc}}"}
        inputs: {doc: {type: json, example: {id: 1}}}
)");
    const json summary = run_json({"run-scenarios", "picky", "--repetitions", "2", "--json"});
    EXPECT_EQ(summary["order"], json({"normal", "schema_drift", "calm"}));
    EXPECT_EQ(summary["status"], "situationally weak");
    EXPECT_EQ(summary["worst_scenario"], "schema_drift");

    auto gated = runner({"run-scenarios", "picky", "--fail-on", "worst-below=-0.5"});
    EXPECT_EQ(gated.exit_code, 1) << gated.err;
    EXPECT_NE(gated.err.find("worst scenario schema_drift has roi_delta -1.000"), std::string::npos)
        << gated.err;
    EXPECT_EQ(runner({"run-scenarios", "picky", "--fail-on", "status=fail"}).exit_code, 0);
    EXPECT_EQ(runner({"run-scenarios", "picky", "--fail-on", "status=weak"}).exit_code, 1);
    const auto bad = runner({"run-scenarios", "picky", "--fail-on", "worst=3"});
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_NE(bad.err.find("--fail-on 'worst=3' is not understood"), std::string::npos) << bad.err;
}

TEST_F(ScenariosCommand, BaselineModeComparesAgainstTheOldBuild) {
    // A/B: the new build fails under hostile_input, the old one never does.
    write_settings(R"(
workflows:
  - name: old-build
    steps:
      - run: [/bin/sh, -c, 'exit 0']
  - name: new-build
    baseline: old-build
    steps:
      - run: [/bin/sh, -c, 'test "$SCENARIO_NAME" != hostile_input']
        files: {word.txt: "{{input.word}}"}
        inputs: {word: {type: string, example: hello}}
)");
    const json summary =
        run_json({"run-scenarios", "new-build", "--all-scenarios", "--json", "--workers", "3"});
    EXPECT_EQ(summary["mode"], "baseline");
    EXPECT_EQ(summary["baseline"], "old-build");
    EXPECT_EQ(summary["order"].size(), 8u);  // the five plus high_latency, resource_strain,
                                             // chaotic_failure
    EXPECT_DOUBLE_EQ(summary["scenarios"]["hostile_input"]["roi_delta"].get<double>(), -1.0);
    EXPECT_DOUBLE_EQ(summary["scenarios"]["chaotic_failure"]["roi_delta"].get<double>(), 0.0);
    EXPECT_EQ(summary["status"], "situationally weak");
    // A string slot and no upstreams: drift (JSON only) and upstream faults have no way in;
    // no credentials and no upstream: none of chaotic_failure's faults happened.
    EXPECT_EQ(summary["not_applicable"],
              json({"schema_drift", "flaky_upstream", "chaotic_failure"}));
    // The baseline's cells are its own runs, recorded under its name.
    EXPECT_EQ(query("SELECT count(*) FROM cells WHERE workflow = 'old-build'")[0][0], "8");
}

TEST_F(ScenariosCommand, SameSeedSameReportAcrossWorkerCounts) {
    // Inputs depend on the seed only: the hostile stub feeds {{input.text}} and the step
    // passes for short payloads, so the ROIs are fractional but reproducible.
    write_settings(R"(
workflows:
  - name: short-only
    steps:
      - run: [/bin/sh, -c, 'test ${#1} -lt 12', sh, "{{input.text}}"]
        inputs: {text: {type: string, example: fine}}
)");
    const json one =
        run_json({"run-scenarios", "short-only", "--repetitions", "6", "--seed", "9", "--json"});
    const json two = run_json({"run-scenarios", "short-only", "--repetitions", "6", "--seed", "9",
                               "--workers", "4", "--json"});
    for (const auto &name : one["order"]) {
        const std::string scenario = name.get<std::string>();
        EXPECT_EQ(one["scenarios"][scenario]["roi"], two["scenarios"][scenario]["roi"]) << scenario;
    }
    EXPECT_EQ(one["worst_scenario"], two["worst_scenario"]);
    EXPECT_EQ(one["status"], two["status"]);
    const double hostile = one["scenarios"]["hostile_input"]["roi"].get<double>();
    EXPECT_GT(hostile, 0.0);  // some hostile payloads are short...
    EXPECT_LT(hostile, 1.0);  // ...and some are not
}

TEST_F(ScenariosCommand, BadInputIsExitTwoWithNothingRecorded) {
    write_settings("workflows:\n" + counting_workflow("counting"));
    auto missing = runner({"run-scenarios", "nope"});
    EXPECT_EQ(missing.exit_code, 2);
    EXPECT_NE(missing.err.find("workflow 'nope' is not defined"), std::string::npos) << missing.err;
    EXPECT_NE(missing.err.find("counting"), std::string::npos) << missing.err;
    EXPECT_EQ(runner({"run-scenarios", "counting", "--repetitions", "0"}).exit_code, 2);
    EXPECT_EQ(runner({"run-scenarios", "counting", "--workers", "0"}).exit_code, 2);
    EXPECT_EQ(runner({"run-scenarios", "counting", "--rep", "2"}).exit_code, 2);
    auto recover = runner({"run-scenarios", "counting", "--recover"});
    EXPECT_EQ(recover.exit_code, 2);
    EXPECT_NE(recover.err.find("no unfinished `run-scenarios counting` session"), std::string::npos)
        << recover.err;
    write_settings(R"(
scenarios:
  - {name: odd, preset: {SANDBOX_STUB_STRATEGY: no_such_stub}}
workflows:
  - name: w
    steps: [{run: [/bin/true]}]
)");
    auto unknown = runner({"run-scenarios", "w"});
    EXPECT_EQ(unknown.exit_code, 2);
    EXPECT_NE(unknown.err.find("no_such_stub"), std::string::npos) << unknown.err;
    EXPECT_EQ(query("SELECT count(*) FROM runs")[0][0], "0");
}

}  // namespace

namespace {

class MisuseScenario : public sbx::test::CliTest {};

TEST_F(MisuseScenario, MisusedInputsBreakAStrictTargetAndCanonicalPresetsRun) {
    // The step accepts only a whole number in range: every misuse kind that applies to an
    // int slot (wrong type, out of range, extra slot aside) makes it fail.
    write_settings(R"(
robustness_repetitions: 1
scenarios:
  - {name: normal}
  - {name: user_misuse, preset: {SANDBOX_STUB_STRATEGY: misuse}}
workflows:
  - name: strict
    steps:
      - run: [/bin/sh, -c, 'test "$1" -ge 1 2>/dev/null && test "$1" -le 9', sh, "{{input.n}}"]
        inputs: {n: {type: int, example: 5, min: 1, max: 9}}
)");
    const auto result = runner({"run-scenarios", "strict", "--repetitions", "6", "--json"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const json summary = json::parse(result.out);
    EXPECT_DOUBLE_EQ(summary["scenarios"]["normal"]["roi"].get<double>(), 1.0);
    const double misused = summary["scenarios"]["user_misuse"]["roi"].get<double>();
    EXPECT_LT(misused, 1.0);
    EXPECT_EQ(summary["worst_scenario"], "user_misuse");
    // Misuse counts are exact: the cell's misuse_failures.<kind> are the kinds of the failed
    // runs' sets, each run counted once, as the strategy tagged them.
    std::map<std::string, double> expected;
    int failed = 0;
    for (const auto &row : query("SELECT runs.passed, runs.input_meta FROM runs JOIN presets ON "
                                 "presets.id = runs.preset_id WHERE presets.name = 'user_misuse' "
                                 "AND runs.flag = 'on'")) {
        if (row[0] == "1") {
            continue;
        }
        ++failed;
        std::set<std::string> kinds;
        const json meta = json::parse(row[1]);
        for (const auto &[slot, tag] : meta["misuse"].items()) {
            kinds.insert(tag["kind"].get<std::string>());
        }
        for (const auto &kind : kinds) {
            expected[kind] += 1.0 / 6;
        }
    }
    EXPECT_DOUBLE_EQ(1.0 - misused, failed / 6.0);
    ASSERT_FALSE(expected.empty());
    const json broken = summary["scenarios"]["user_misuse"]["broken_by"]["misuse"];
    ASSERT_EQ(broken.size(), expected.size()) << broken;
    for (const auto &[kind, share] : expected) {
        EXPECT_DOUBLE_EQ(broken[kind].get<double>(), share) << kind;
    }

    // SANDBOX_PRESET_MODE=canonical: the six canonical profiles at both severities,
    // user_misuse included.
    const auto canonical = sbx::test::run_command(
        {SBX_BINARY, "--config", settings_, "--data-dir", dir_ + "/data", "run", "--json"},
        {{"SANDBOX_PRESET_MODE", "canonical"}}, dir_);
    ASSERT_EQ(canonical.exit_code, 0) << canonical.err;
    EXPECT_EQ(json::parse(canonical.out)["cells"].size(), 12u);
}

}  // namespace

namespace {

class ConcurrencyCopies : public sbx::test::CliTest {};

TEST_F(ConcurrencyCopies, CopiesRunAtOnceInOneWorkspaceAndEachIsAnExecution) {
    // together: each copy leaves a marker and waits until all four are there, so it only
    // passes when the four copies really run at the same time.
    // first-wins: `mkdir` succeeds for exactly one copy of each run: ROI 1/4 exactly.
    write_settings(R"(
scenarios:
  - {name: spike4, preset: {CONCURRENCY_LEVEL: "4"}}
workflows:
  - name: together
    steps:
      - run: [/bin/sh, -c, 'mktemp -p . c.XXXXXX >/dev/null; for i in $(seq 100); do [ $(ls | grep -c "^c\.") -ge 4 ] && exit 0; sleep 0.05; done; exit 1']
  - name: first-wins
    steps:
      - run: [/bin/sh, -c, 'mkdir lock']
)");
    const auto together = runner({"run-scenarios", "together", "--repetitions", "2", "--json"});
    ASSERT_EQ(together.exit_code, 0) << together.err;
    const json summary = json::parse(together.out);
    EXPECT_DOUBLE_EQ(summary["scenarios"]["spike4"]["roi"].get<double>(), 1.0);
    EXPECT_EQ(query("SELECT min(value), max(value) FROM metrics WHERE name = 'concurrency_level'"),
              (std::vector<std::vector<std::string>>{{"4.0", "4.0"}}));

    const auto race = runner({"run-scenarios", "first-wins", "--repetitions", "3", "--json"});
    ASSERT_EQ(race.exit_code, 0) << race.err;
    const json raced = json::parse(race.out);
    EXPECT_DOUBLE_EQ(raced["scenarios"]["spike4"]["roi"].get<double>(), 0.25);
    EXPECT_DOUBLE_EQ(raced["scenarios"]["spike4"]["roi_delta"].get<double>(), -0.75);
    EXPECT_EQ(query("SELECT DISTINCT value FROM metrics JOIN runs ON runs.id = metrics.run_id "
                    "WHERE name = 'concurrency_error_rate' AND runs.workflow = 'first-wins' AND "
                    "runs.flag = 'on'"),
              (std::vector<std::vector<std::string>>{{"0.75"}}));
    // The step record keeps every copy's verdict.
    const auto copies = json::parse(
        query("SELECT result FROM steps JOIN runs ON runs.id = steps.run_id WHERE "
              "runs.workflow = 'first-wins' AND runs.flag = 'on' LIMIT 1")[0][0])["copies"];
    ASSERT_EQ(copies.size(), 4u);
    int passed = 0;
    for (const auto &copy : copies) {
        passed += copy["passed"].get<bool>() ? 1 : 0;
    }
    EXPECT_EQ(passed, 1);
}

}  // namespace
