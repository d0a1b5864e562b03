// `sandbox-runner run` end to end: settings → plugins → local executor → injector, stub,
// collector and predictor all taking part → SQLite → report.
#include <signal.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_fixture.hpp"

namespace {

using nlohmann::json;

class RunCommand : public sbx::test::CliTest {
  protected:
    void SetUp() override {
        CliTest::SetUp();
        // No plugin_dirs: the binary finds the plugins built beside it.
        write_settings(std::string() + R"(
injectors: [cpu_spike]
plugins:
  cpu_spike: {burners: 2}
presets:
  - {SCENARIO_NAME: normal, GREETING: hello}
  - {SCENARIO_NAME: spike, CPU_SPIKE: "1"}
  - {SCENARIO_NAME: tight_memory, MEMORY_LIMIT: 16Mi}
workflows:
  - id: 7
    name: kv
    steps:
      - name: put
        run: [)" + SBX_DEMO_KV +
                       R"(, put, "{{input.key}}"]
        stdin: "{{input.record}}"
        inputs:
          key: {type: string, example: alpha}
          record: {type: json, example: {id: 1, name: Ada}}
        expect: {exit_code: 0, stdout_contains: stored}
      - name: get
        run: [)" + SBX_DEMO_KV +
                       R"(, get, "{{input.key}}"]
        inputs: {key: {type: string, example: alpha}}
        expect: {stdout_contains: Ada}
  - name: spike-probe
    filesystem: host  # the host's /proc: the burners are host processes
    steps:
      - name: probe
        run: [/bin/sh, -c, 'echo "pids=$SANDBOX_CPU_SPIKE_PIDS greeting=$GREETING"; for p in $(echo "$SANDBOX_CPU_SPIKE_PIDS" | tr , " "); do test -d /proc/$p || exit 9; done']
)");
    }
};

TEST_F(RunCommand, RunsEveryPresetRecordsEverythingAndReports) {
    const auto result = runner({"run", "--workflow", "kv", "--runs", "2", "--seed", "5", "--json"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const json report = json::parse(result.out);
    ASSERT_EQ(report["cells"].size(), 3u);
    const auto &normal = report["cells"][0];
    EXPECT_EQ(normal["preset"], "normal");
    EXPECT_EQ(normal["runs"], 2);
    EXPECT_DOUBLE_EQ(normal["roi"].get<double>(), 1.0);
    EXPECT_GT(normal["metrics"]["max_rss_kb"].get<double>(), 20000) << "the kv tool warms 24 MiB";
    EXPECT_EQ(normal["forecast"]["method"], "auto");
    EXPECT_TRUE(normal["forecast"]["insufficient_data"].get<bool>());
    const auto &spike = report["cells"][1];
    EXPECT_EQ(spike["active_injectors"], json::array({"cpu_spike"}));
    const auto &tight = report["cells"][2];
    EXPECT_DOUBLE_EQ(tight["roi"].get<double>(), 0.0) << tight.dump();

    // Everything is in SQLite: 3 presets x 2 runs, their steps, metrics, cells, forecasts.
    EXPECT_EQ(query("SELECT count(*) FROM runs")[0][0], "6");
    EXPECT_EQ(query("SELECT count(*) FROM cells")[0][0], "3");
    EXPECT_EQ(
        query("SELECT count(*) FROM predictions WHERE shown = 1 AND subject LIKE 'roi:%'")[0][0],
        "3");
    EXPECT_EQ(query("SELECT count(*) FROM runs WHERE passed = 1")[0][0], "4");
    EXPECT_EQ(query("SELECT DISTINCT status FROM steps JOIN runs ON runs.id = steps.run_id "
                    "JOIN presets ON presets.id = runs.preset_id WHERE presets.name = "
                    "'tight_memory'")[0][0],
              "OOM");
    const auto kinds = query("SELECT kind FROM plugins_used ORDER BY kind");
    std::vector<std::string> used;
    used.reserve(kinds.size());
    for (const auto &row : kinds) {
        used.push_back(row[0]);
    }
    // The default collectors (process_metrics, extended), the shown predictor (auto) and the
    // three compared ones (ema, linear, holt).
    EXPECT_EQ(used,
              (std::vector<std::string>{"executor", "injector", "metrics", "metrics", "predictor",
                                        "predictor", "predictor", "predictor", "stub"}));
    EXPECT_EQ(query("SELECT status FROM sessions")[0][0], "finished");
    EXPECT_EQ(query("PRAGMA integrity_check")[0][0], "ok");
}

TEST_F(RunCommand, TheCpuSpikeBurnsDuringTheRunAndIsGoneAfterwards) {
    const auto result = runner({"run", "--workflow", "spike-probe", "--json"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const json report = json::parse(result.out);
    EXPECT_DOUBLE_EQ(report["cells"][1]["roi"].get<double>(), 1.0)
        << "the target saw the burners alive: " << report.dump();
    const auto rows = query(
        "SELECT steps.result FROM steps JOIN runs ON runs.id = steps.run_id JOIN presets ON "
        "presets.id = runs.preset_id WHERE presets.name = 'spike'");
    ASSERT_EQ(rows.size(), 1u);
    const std::string out = json::parse(rows[0][0])["stdout"];
    const auto start = out.find("pids=") + 5;
    const std::string pids = out.substr(start, out.find(' ', start) - start);
    ASSERT_FALSE(pids.empty()) << out;
    for (size_t begin = 0; begin < pids.size();) {
        const size_t end = std::min(pids.find(',', begin), pids.size());
        const int pid = std::stoi(pids.substr(begin, end - begin));
        EXPECT_NE(kill(pid, 0), 0) << "burner " << pid << " survived its teardown";
        begin = end + 1;
    }
    // Unknown preset keys reach the target's environment unchanged.
    const auto normal = query(
        "SELECT steps.result FROM steps JOIN runs ON runs.id = steps.run_id JOIN presets ON "
        "presets.id = runs.preset_id WHERE presets.name = 'normal'");
    EXPECT_NE(json::parse(normal[0][0])["stdout"].get<std::string>().find("greeting=hello"),
              std::string::npos);
}

TEST_F(RunCommand, PrintsAReadableTableAndForecastsFromHistory) {
    for (int i = 0; i < 4; ++i) {
        ASSERT_EQ(runner({"run", "--workflow", "7", "--preset-file",
                          write_file("p.json", R"({"SCENARIO_NAME": "only"})")})
                      .exit_code,
                  0);
    }
    const auto result = runner({"run", "--workflow", "kv", "--preset-file",
                                write_file("p.json", R"({"SCENARIO_NAME": "only"})")});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.out.find("PRESET"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("only"), std::string::npos) << result.out;
    // Five cells of history: the ema predictor now gives an interval.
    EXPECT_NE(result.out.find("1.000 [1.000, 1.000]"), std::string::npos) << result.out;
    EXPECT_EQ(query("SELECT count(*) FROM sessions")[0][0], "5");
}

}  // namespace

namespace {

class Logging : public sbx::test::CliTest {};

TEST_F(Logging, JsonLinesCarryHostAndPluginMessages) {
    write_settings(R"(
injectors: [cpu_spike]
presets: [{SCENARIO_NAME: spike, CPU_SPIKE: "1"}]
workflows:
  - name: t
    steps:
      - run: [/bin/true]
)");
    const auto result = sbx::test::run_command({SBX_BINARY, "--config", settings_, "--data-dir",
                                                dir_ + "/data", "--log-level", "debug", "run"},
                                               {{"SANDBOX_JSON_LOGS", "1"}}, dir_);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    std::istringstream lines(result.err);
    int parsed = 0;
    bool plugin_message = false;
    for (std::string line; std::getline(lines, line);) {
        const auto entry = nlohmann::json::parse(line);  // throws, failing the test, if not JSON
        EXPECT_TRUE(entry.contains("time") && entry.contains("level") && entry.contains("msg"));
        plugin_message =
            plugin_message || entry["msg"].get<std::string>().find("[cpu_spike] started") == 0;
        ++parsed;
    }
    EXPECT_GT(parsed, 3);
    EXPECT_TRUE(plugin_message) << "the injector's log line reached the host's log:\n"
                                << result.err;
}

}  // namespace

namespace {

class Workspaces : public sbx::test::CliTest {};

TEST_F(Workspaces, EachRunStartsEmptyStepsShareItAndNothingIsLeftBehind) {
    write_settings(R"yaml(
presets: [{SCENARIO_NAME: normal}]
workflows:
  - name: ws
    steps:
      - name: fresh
        run: [/bin/sh, -c, 'test -z "$(ls -A)" && mkdir -p sub && touch sub/leftover && pwd']
      - name: shared
        run: [/bin/sh, -c, 'test -f sub/leftover && echo shared']
        expect: {stdout_contains: shared}
)yaml");
    const auto result = runner({"run", "--runs", "3", "--json"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_DOUBLE_EQ(nlohmann::json::parse(result.out)["cells"][0]["roi"].get<double>(), 1.0)
        << "every run found an empty workspace and its steps shared it";
    const auto rows = query("SELECT result FROM steps WHERE name = 'fresh'");
    ASSERT_EQ(rows.size(), 3u);
    for (const auto &row : rows) {
        std::string workspace = nlohmann::json::parse(row[0])["stdout"];
        workspace.erase(workspace.find_last_not_of('\n') + 1);
        ASSERT_FALSE(workspace.empty());
        EXPECT_FALSE(std::filesystem::exists(workspace)) << workspace << " was left behind";
    }
}

TEST_F(Workspaces, KeptOnRequest) {
    write_settings(R"yaml(
presets: [{SCENARIO_NAME: normal}]
workflows:
  - name: ws
    steps:
      - run: [/bin/sh, -c, 'touch mark && pwd']
)yaml");
    const auto result = runner({"run", "--runs", "2", "--keep-workspaces"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const auto rows = query("SELECT result FROM steps");
    ASSERT_EQ(rows.size(), 2u);
    std::vector<std::string> seen;
    for (const auto &row : rows) {
        std::string workspace = nlohmann::json::parse(row[0])["stdout"];
        workspace.erase(workspace.find_last_not_of('\n') + 1);
        EXPECT_TRUE(std::filesystem::exists(workspace + "/mark")) << workspace;
        seen.push_back(workspace);
        std::filesystem::remove_all(workspace);
    }
    EXPECT_NE(seen[0], seen[1]) << "a kept workspace is never reused";
}

}  // namespace

namespace {

class PresetSources : public sbx::test::CliTest {
  protected:
    void SetUp() override {
        CliTest::SetUp();
        write_settings(R"(
presets: [{SCENARIO_NAME: from_yaml}]
workflows:
  - name: t
    steps:
      - run: [/bin/sh, -c, 'echo "scenario=$SCENARIO_NAME"']
)");
    }
    std::vector<std::string> presets_run() {
        std::vector<std::string> names;
        for (const auto &row : query("SELECT DISTINCT presets.name FROM runs JOIN presets ON "
                                     "presets.id = runs.preset_id ORDER BY presets.id")) {
            names.push_back(row[0]);
        }
        return names;
    }
};

TEST_F(PresetSources, FilesThenEnvironmentThenYaml) {
    ASSERT_EQ(runner({"run"}).exit_code, 0);
    EXPECT_EQ(presets_run(), (std::vector<std::string>{"from_yaml"}));

    const auto env_run = sbx::test::run_command(
        {SBX_BINARY, "--config", settings_, "--data-dir", dir_ + "/data", "run"},
        {{"SANDBOX_ENV_PRESETS", R"([{"SCENARIO_NAME": "env_a"}, {"SCENARIO_NAME": "env_b"}])"}},
        dir_);
    ASSERT_EQ(env_run.exit_code, 0) << env_run.err;
    EXPECT_EQ(presets_run(), (std::vector<std::string>{"from_yaml", "env_a", "env_b"}));

    const auto a = write_file("a.json", R"({"SCENARIO_NAME": "file_a"})");
    const auto b = write_file("b.json", R"([{"SCENARIO_NAME": "file_b"}])");
    const auto file_run =
        sbx::test::run_command({SBX_BINARY, "--config", settings_, "--data-dir", dir_ + "/data",
                                "run", "--preset-file", a, "--preset-file", b},
                               {{"SANDBOX_ENV_PRESETS", R"({"SCENARIO_NAME": "ignored"})"}}, dir_);
    ASSERT_EQ(file_run.exit_code, 0) << file_run.err;
    EXPECT_EQ(presets_run(),
              (std::vector<std::string>{"from_yaml", "env_a", "env_b", "file_a", "file_b"}));
    // The scenario's name reaches the target.
    EXPECT_NE(query("SELECT result FROM steps JOIN runs ON runs.id = steps.run_id JOIN presets ON "
                    "presets.id = runs.preset_id WHERE presets.name = 'file_b'")[0][0]
                  .find("scenario=file_b"),
              std::string::npos);
}

// Preset keys exported in the shell, as the original tool read them: a key a preset writes
// keeps its value, the environment fills the others and replaces generated values; a bad
// value is exit 2 naming the variable; preset_env: false keeps them out.
TEST_F(PresetSources, PresetKeysFromTheEnvironmentFillWrittenPresetsAndReplaceGeneratedOnes) {
    write_settings(R"(
presets: [{SCENARIO_NAME: written, MEMORY_LIMIT: 64Mi}]
workflows:
  - name: t
    steps:
      - run: [/bin/true]
)");
    const std::map<std::string, std::string> exported = {{"MEMORY_LIMIT", "128Mi"},
                                                         {"THREAD_BURST", "32"}};
    const auto base =
        std::vector<std::string>{SBX_BINARY, "--config", settings_, "--data-dir", dir_ + "/data"};
    const auto with = [&](std::vector<std::string> args) {
        args.insert(args.begin(), base.begin(), base.end());
        return args;
    };
    const auto filled = sbx::test::run_command(with({"run"}), exported, dir_);
    ASSERT_EQ(filled.exit_code, 0) << filled.err;
    EXPECT_NE(filled.err.find("preset keys from the environment: MEMORY_LIMIT=128Mi, "
                              "THREAD_BURST=32 (each fills the presets that leave the key out"),
              std::string::npos)
        << filled.err;
    const auto body = [&] {
        return nlohmann::json::parse(
            query("SELECT body FROM presets ORDER BY id DESC LIMIT 1")[0][0]);
    };
    EXPECT_EQ(body(), nlohmann::json({{"SCENARIO_NAME", "written"},
                                      {"MEMORY_LIMIT", "64Mi"},
                                      {"THREAD_BURST", "32"}}));

    const auto generated = sbx::test::run_command(
        {SBX_BINARY, "presets", "generate", "--count", "3", "--seed", "5"}, exported, dir_);
    ASSERT_EQ(generated.exit_code, 0) << generated.err;
    for (const auto &preset : nlohmann::json::parse(generated.out)) {
        EXPECT_EQ(preset["MEMORY_LIMIT"], "128Mi") << preset;
        EXPECT_EQ(preset["THREAD_BURST"], "32") << preset;
    }

    const auto bad = sbx::test::run_command(with({"run"}), {{"CPU_LIMIT", "two"}}, dir_);
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_NE(bad.err.find("environment variable CPU_LIMIT=two: "), std::string::npos) << bad.err;

    const auto runs_before = query("SELECT count(*) FROM runs")[0][0];
    auto off = exported;
    off["SANDBOX_PRESET_ENV"] = "0";
    const auto untouched = sbx::test::run_command(with({"run"}), off, dir_);
    ASSERT_EQ(untouched.exit_code, 0) << untouched.err;
    EXPECT_EQ(untouched.err.find("preset keys from the environment"), std::string::npos);
    EXPECT_EQ(query("SELECT p.body FROM runs r JOIN presets p ON p.id = r.preset_id ORDER BY "
                    "r.id DESC LIMIT 1")[0][0],
              R"({"MEMORY_LIMIT":"64Mi","SCENARIO_NAME":"written"})");
    EXPECT_NE(query("SELECT count(*) FROM runs")[0][0], runs_before);
}

TEST_F(PresetSources, FailUnderGatesWithExitCode1) {
    write_settings(R"(
presets: [{SCENARIO_NAME: normal}, {SCENARIO_NAME: hurried, TIMEOUT: 1ms}]
workflows:
  - name: t
    steps:
      - run: [/bin/sh, -c, 'sleep 0.05']
)");
    const auto gated = runner({"run", "--fail-under", "0.5"});
    EXPECT_EQ(gated.exit_code, 1) << gated.err;
    EXPECT_NE(gated.err.find("'hurried'"), std::string::npos) << gated.err;
    EXPECT_EQ(runner({"run", "--fail-under", "0"}).exit_code, 0);
    EXPECT_EQ(runner({"run"}).exit_code, 0) << "without a gate, failing runs are a report";
}

TEST_F(PresetSources, FlagsOverrideEnvironmentOverrideYaml) {
    write_settings("data_dir: " + dir_ +
                   "/yaml-data\npresets: [{SCENARIO_NAME: n}]\nworkflows:\n  - name: t\n"
                   "    steps:\n      - run: [/bin/true]\n");
    auto result = sbx::test::run_command({SBX_BINARY, "--config", settings_, "run"}, {}, dir_);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_TRUE(std::filesystem::exists(dir_ + "/yaml-data/metrics.db"));
    result = sbx::test::run_command({SBX_BINARY, "--config", settings_, "run"},
                                    {{"SANDBOX_DATA_DIR", dir_ + "/env-data"}}, dir_);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_TRUE(std::filesystem::exists(dir_ + "/env-data/metrics.db"));
    result = sbx::test::run_command(
        {SBX_BINARY, "--config", settings_, "--data-dir", dir_ + "/flag-data", "run"},
        {{"SANDBOX_DATA_DIR", dir_ + "/env-data"}}, dir_);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_TRUE(std::filesystem::exists(dir_ + "/flag-data/metrics.db"));
}

}  // namespace

namespace {

class NulInputs : public sbx::test::CliTest {};

TEST_F(NulInputs, ArgvAndEnvironmentGetTheClosestLegalFormStdinKeepsTheBytes) {
    // A NUL cannot travel in argv or the environment: it is dropped there (and the step's
    // record says so), while stdin carries it intact. The run goes on either way.
    write_settings(R"(
presets: [{SCENARIO_NAME: normal}]
workflows:
  - name: nul
    steps:
      - run: [/bin/sh, -c, 'printf "[%s][%s]" "$1" "$V"; od -An -c', sh, "{{input.text}}"]
        env: {V: "{{input.text}}"}
        stdin: "{{input.text}}"
        inputs: {text: {type: string, example: "a\0b"}}
        expect: {stdout_contains: "[ab][ab]"}
)");
    const auto result = runner({"run", "--json"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(json::parse(result.out)["cells"][0]["passed"], 1) << result.out;
    const auto step = json::parse(query("SELECT result FROM steps")[0][0]);
    EXPECT_NE(step["stdout"].get<std::string>().find(R"(a  \0   b)"), std::string::npos)
        << step["stdout"];
    EXPECT_EQ(step["host_notes"],
              json({"argv[4]: 1 NUL byte(s) removed (a C string cannot carry them)",
                    "env.V: 1 NUL byte(s) removed (a C string cannot carry them)"}));
}

}  // namespace

namespace {

class ExtendedSettings : public sbx::test::CliTest {};

// A user file that says only what differs: the embedded defaults (their demo workflow, their
// injectors) stay, `+` adds to a list, and a bad base is an error at its line and column.
TEST_F(ExtendedSettings, AUserFileExtendsTheEmbeddedDefaults) {
    write_settings("extends: default\nworkers: 1\ninjectors: [-cpu_spike]\n");
    const auto listed = runner({"workflows", "list"});
    EXPECT_EQ(listed.exit_code, 0) << listed.err;
    EXPECT_NE(listed.out.find("demo-kv"), std::string::npos) << listed.out;

    write_settings("extends: base\n");
    const auto bad = runner({"workflows", "list"});
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_NE(
        bad.err.find(settings_ + ":1:10: extends: 'base' is not a base to extend; write extends: "
                                 "default"),
        std::string::npos)
        << bad.err;
}

}  // namespace
