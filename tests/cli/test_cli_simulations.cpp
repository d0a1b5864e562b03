// The other matrix commands end to end: simulate-temporal-trajectory, workflow and section
// simulations with synergy, and workflows kept in the database — on targets whose outcome
// per preset is known by construction, so every figure is exact.
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_fixture.hpp"

namespace {

using nlohmann::json;

class Simulations : public sbx::test::CliTest {
  protected:
    json run_json(const std::vector<std::string> &args,
                  const std::map<std::string, std::string> &env = {}) {
        std::vector<std::string> argv = {SBX_BINARY, "--config", settings_, "--data-dir",
                                         dir_ + "/data"};
        argv.insert(argv.end(), args.begin(), args.end());
        const auto result = sbx::test::run_command(argv, env, dir_);
        EXPECT_EQ(result.exit_code, 0) << result.err;
        return json::parse(result.out);
    }
    void write_script(const std::string &path, const std::string &body) {
        std::filesystem::create_directories(std::filesystem::path(dir_ + "/" + path).parent_path());
        const std::string full = write_file(path, "#!/bin/sh\n" + body + "\n");
        ::chmod(full.c_str(), 0755);
    }
};

TEST_F(Simulations, TrajectoryStagesHaveExactMetricsAndAreRecorded) {
    // Fails under schema_drift and chaotic_failure: stage ROIs 1, 1, 1, 0, 0.
    write_settings(R"(
workflows:
  - name: fragile
    steps:
      - run: [/bin/sh, -c, 'case "$SCENARIO_NAME" in schema_drift|chaotic_failure) exit 1;; esac']
)");
    const json out =
        run_json({"simulate-temporal-trajectory", "fragile", "--repetitions", "2", "--json"});
    const auto &stages = out["stages"];
    ASSERT_EQ(stages.size(), 5u);
    const std::vector<std::string> names = {"normal", "high_latency", "resource_strain",
                                            "schema_drift", "chaotic_failure"};
    // stability = 1 / (1 + sample σ of the ROIs so far): σ(1,1,1,0) = 0.5;
    // σ(1,1,1,0,0) = sqrt(1.2 / 4).
    const std::vector<double> stability = {1, 1, 1, 1 / 1.5, 1 / (1 + std::sqrt(0.3))};
    for (size_t i = 0; i < 5; ++i) {
        SCOPED_TRACE(names[i]);
        const double roi = i < 3 ? 1.0 : 0.0;
        EXPECT_EQ(stages[i]["stage"], names[i]);
        EXPECT_DOUBLE_EQ(stages[i]["roi"].get<double>(), roi);
        EXPECT_DOUBLE_EQ(stages[i]["degradation"].get<double>(), 1.0 - roi);
        EXPECT_DOUBLE_EQ(stages[i]["resilience"].get<double>(), roi);
        EXPECT_NEAR(stages[i]["stability"].get<double>(), stability[i], 1e-12);
    }
    EXPECT_EQ(query("SELECT stage, roi FROM trajectory_stages ORDER BY position")[3],
              (std::vector<std::string>{"schema_drift", "0.0"}));
    std::ifstream file(dir_ + "/data/foresight_history.json");
    const json foresight = json::parse(file);
    ASSERT_EQ(foresight["cycles"].size(), 1u);
    EXPECT_DOUBLE_EQ(foresight["cycles"][0]["schema_drift_degradation"].get<double>(), 1.0);
    EXPECT_NEAR(foresight["cycles"][0]["stability"].get<double>(), stability[4], 1e-12);
}

TEST_F(Simulations, WorkflowSynergyIsCombinedMinusTheMeanOfTheParts) {
    write_settings(R"(
presets:
  - {SCENARIO_NAME: calm}
  - {SCENARIO_NAME: harsh}
workflows:
  - name: steady
    steps: [{run: [/bin/sh, -c, 'exit 0']}]
  - name: touchy
    steps: [{run: [/bin/sh, -c, 'test "$SCENARIO_NAME" != harsh']}]
)");
    const json out = run_json({"run", "--all-workflows", "--runs", "2", "--json"});
    ASSERT_EQ(out["presets"].size(), 2u);
    const auto &calm = out["presets"][0];
    const auto &harsh = out["presets"][1];
    EXPECT_EQ(calm["combined"]["name"], "all_workflows");
    EXPECT_DOUBLE_EQ(calm["synergy"]["synergy_roi"].get<double>(), 0.0);
    // harsh: the combined run fails with touchy: 0 − mean(1, 0) = −0.5.
    EXPECT_DOUBLE_EQ(harsh["combined"]["roi"].get<double>(), 0.0);
    EXPECT_DOUBLE_EQ(harsh["synergy"]["synergy_roi"].get<double>(), -0.5);
    EXPECT_EQ(query("SELECT subject, scenario, value FROM synergy WHERE name = 'synergy_roi' "
                    "ORDER BY scenario"),
              (std::vector<std::vector<std::string>>{{"workflows", "calm", "0.0"},
                                                     {"workflows", "harsh", "-0.5"}}));
    std::ifstream file(dir_ + "/data/roi_history.json");
    const json history = json::parse(file);
    // harsh's series: steady's cell, touchy's cell, then the combined run with the synergy.
    EXPECT_EQ(history["scenarios"]["harsh"]["roi"], json({1.0, 0.0, 0.0}));
    EXPECT_EQ(history["scenarios"]["harsh"]["metrics"]["synergy_roi"], json({-0.5}));
    // Tracker rankings by total RAROI (the cell ROI here): steady 1 + 1, touchy 1 + 0.
    ASSERT_EQ(out["rankings"].size(), 2u);
    EXPECT_EQ(out["rankings"][0]["module"], "steady");
    EXPECT_DOUBLE_EQ(out["rankings"][0]["raroi_total"].get<double>(), 2.0);
    EXPECT_EQ(out["rankings"][1]["module"], "touchy");
    EXPECT_DOUBLE_EQ(out["rankings"][1]["roi_delta_total"].get<double>(), 1.0);
}

TEST_F(Simulations, SectionsMeetEveryProfileAndTheirKeywordsAtHighSeverity) {
    // cache → high_latency_api; schema → schema_drift; "probe" is mapped to both by the
    // settings' keyword_profiles.
    write_script("repo/bin/cache_warm", "exit 0");
    write_script("repo/bin/schema_check", "test \"$SCENARIO_NAME\" != schema_drift");
    write_script("repo/bin/probe", "exit 0");
    write_file("repo/bin/README", "not executable: ignored");
    write_settings(R"(
targets: ["bin/*"]
keyword_profiles: {probe: [high_latency_api, schema_mismatch]}
)");
    const json out = run_json({"run", "--json"}, {{"SANDBOX_REPO_PATH", dir_ + "/repo"}});
    EXPECT_EQ(out["subject"], "sections");
    std::map<std::string, json> by_preset;
    for (const auto &entry : out["presets"]) {
        by_preset[entry["preset"].get<std::string>()] = entry;
    }
    // The six low canonical presets, then the high ones the keywords name.
    ASSERT_EQ(by_preset.size(), 8u) << out.dump(2);
    const auto part_names = [](const json &entry) {
        std::vector<std::string> names;
        for (const auto &part : entry["parts"]) {
            names.push_back(part["name"]);
        }
        return names;
    };
    const std::vector<std::string> every = {"bin_cache_warm", "bin_probe", "bin_schema_check"};
    // The guarantee: a cache target meets hostile_input too, whatever its keywords.
    EXPECT_EQ(part_names(by_preset["hostile_input"]), every);
    EXPECT_EQ(part_names(by_preset["high_latency_api"]), every);
    EXPECT_EQ(part_names(by_preset["high_latency_api#high"]),
              (std::vector<std::string>{"bin_cache_warm", "bin_probe"}));
    EXPECT_EQ(part_names(by_preset["schema_drift#high"]),
              (std::vector<std::string>{"bin_probe", "bin_schema_check"}));
    // schema_drift: the combined run fails with schema_check: 0 − mean(1, 1, 0); at high
    // severity only probe and schema_check: 0 − mean(1, 0).
    EXPECT_NEAR(by_preset["schema_drift"]["synergy"]["synergy_roi"].get<double>(), -2.0 / 3, 1e-9);
    EXPECT_DOUBLE_EQ(by_preset["schema_drift#high"]["synergy"]["synergy_roi"].get<double>(), -0.5);
    EXPECT_EQ(query("SELECT count(*) FROM synergy WHERE subject = 'sections' AND name = "
                    "'synergy_roi'")[0][0],
              "8");

    // A custom preset list that leaves out a profile is an error when asked.
    write_settings(R"(
targets: ["bin/cache_warm"]
presets: [{SCENARIO_NAME: tight, MEMORY_LIMIT: 64Mi}]
)");
    std::vector<std::string> argv = {SBX_BINARY,   "--config",     settings_,
                                     "--data-dir", dir_ + "/data", "run"};
    const auto strict = sbx::test::run_command(
        argv, {{"SANDBOX_REPO_PATH", dir_ + "/repo"}, {"SANDBOX_FAIL_ON_MISSING_SCENARIOS", "1"}},
        dir_);
    EXPECT_EQ(strict.exit_code, 2);
    EXPECT_NE(strict.err.find("high_latency_api, hostile_input"), std::string::npos) << strict.err;
    // Without the switch the canonical presets are added beside the custom one.
    const json added = run_json({"run", "--json"}, {{"SANDBOX_REPO_PATH", dir_ + "/repo"}});
    ASSERT_EQ(added["presets"].size(), 8u);
    EXPECT_EQ(added["presets"][0]["preset"], "tight");
    EXPECT_EQ(added["presets"][1]["preset"], "high_latency_api");
    EXPECT_EQ(added["presets"][7]["preset"], "high_latency_api#high");

    write_settings("targets: [\"bin/nothing*\"]\n");
    const auto none = sbx::test::run_command(argv, {{"SANDBOX_REPO_PATH", dir_ + "/repo"}}, dir_);
    EXPECT_EQ(none.exit_code, 2);
    EXPECT_NE(none.err.find("'bin/nothing*' matches no executable"), std::string::npos) << none.err;
}

TEST_F(Simulations, ImportedWorkflowsRunByIdFromTheDatabase) {
    write_file("more.yaml", R"(
workflows:
  - id: 42
    name: imported
    steps:
      - run: [/bin/sh, -c, 'echo "hi $1"', sh, "{{input.who}}"]
        inputs: {who: {type: string, example: there}}
        expect: {stdout_contains: "hi there"}
)");
    write_settings("workflows: [{name: local, steps: [{run: [/bin/true]}]}]\n");
    const auto imported = runner({"workflows", "import", dir_ + "/more.yaml"});
    ASSERT_EQ(imported.exit_code, 0) << imported.err;
    EXPECT_NE(imported.out.find("imported workflow imported as id 42"), std::string::npos);
    const json listed = run_json({"workflows", "list", "--json"});
    ASSERT_EQ(listed.size(), 2u);
    EXPECT_EQ(listed[1]["name"], "imported");
    EXPECT_EQ(listed[1]["id"], 42);
    const json summary = run_json({"run-scenarios", "42", "--json"});
    EXPECT_EQ(summary["workflow"], "imported");
    EXPECT_DOUBLE_EQ(summary["scenarios"]["normal"]["roi"].get<double>(), 1.0);

    write_file("bad.yaml", "workflows:\n  - name: broken\n    steps: []\n");
    const auto bad = runner({"workflows", "import", dir_ + "/bad.yaml"});
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_NE(bad.err.find("bad.yaml:3:"), std::string::npos) << bad.err;
    EXPECT_EQ(runner({"workflows", "frobnicate"}).exit_code, 2);
}

}  // namespace

namespace {

class ConvergedParts : public Simulations {};

TEST_F(ConvergedParts, AreSkippedUntilTheirFlagIsRemoved) {
    // The first cycle's delta is 1 (from no ROI to 1), every later one 0: with ROI_CYCLES=1
    // and a window of 5, the window is all zeros at the 6th cycle, when both workflows
    // converge; they are skipped from then on.
    write_settings(R"(
presets: [{SCENARIO_NAME: calm}]
workflows:
  - name: steady
    steps: [{run: [/bin/true]}]
  - name: other
    steps: [{run: [/bin/true]}]
)");
    const std::map<std::string, std::string> env = {{"ROI_CYCLES", "1"}};
    for (int cycle = 1; cycle <= 6; ++cycle) {
        const json out = run_json({"run", "--all-workflows", "--json"}, env);
        ASSERT_EQ(out["presets"][0]["parts"].size(), 2u) << "cycle " << cycle;
    }
    std::ifstream flags_file(dir_ + "/data/workflows.flags");
    EXPECT_EQ(json::parse(flags_file)["converged"], json({"other", "steady"}));
    std::vector<std::string> argv = {SBX_BINARY,     "--config", settings_,        "--data-dir",
                                     dir_ + "/data", "run",      "--all-workflows"};
    const auto skipped = sbx::test::run_command(argv, env, dir_);
    EXPECT_EQ(skipped.exit_code, 0) << skipped.err;
    EXPECT_NE(skipped.out.find("has converged; nothing to run"), std::string::npos) << skipped.out;

    // The flags file is the switch: a module taken out of it runs again.
    write_file("data/workflows.flags", R"({"converged": ["other"]})");
    const json again = run_json({"run", "--all-workflows", "--json"}, env);
    ASSERT_EQ(again["presets"][0]["parts"].size(), 1u);
    EXPECT_EQ(again["presets"][0]["parts"][0]["name"], "steady");
}

}  // namespace
