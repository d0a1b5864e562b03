// A faulty optional plugin never costs the user's runs: a metrics collector or a predictor,
// built as a third-party `.so` with the SDK alone, that crashes, hangs, leaks or answers
// garbage is disabled with one warning, the command finishes with every run recorded, the
// reports name it, and the saved request replays the failure with `plugins call`. Also: an
// id two plugin files provide is refused unless the settings choose one.
#include <filesystem>
#include <nlohmann/json.hpp>

#include "../cli/cli_fixture.hpp"
#include "../cli/pty_run.hpp"

namespace {

constexpr const char *kCollector = SBX_ISOLATION_FIXTURES "/metrics/misbehaving_collector.so";
constexpr const char *kPredictor = SBX_ISOLATION_FIXTURES "/predictor/misbehaving_predictor.so";
constexpr const char *kShadow = SBX_SHADOW_FIXTURES "/metrics/process_metrics.so";

class FaultyPlugins : public sbx::test::CliTest {
  protected:
    // Three runs of /bin/true with the misbehaving collector (and predictor) as configured.
    void settings_for(const std::string &collector_does, const std::string &predictor_does,
                      const std::string &plugin_host = "") {
        write_settings(
            "metrics: [process_metrics, misbehaving_collector]\n"
            "predictor: misbehaving_predictor\nplugins:\n"
            "  misbehaving_collector: {does: " +
            collector_does + "}\n  misbehaving_predictor: {does: " + predictor_does + "}\n" +
            plugin_host +
            "presets: [{SCENARIO_NAME: calm}]\n"
            "workflows:\n  - name: wf\n    steps:\n      - run: [/bin/true]\n");
    }
    sbx::test::CommandResult run_three(const std::vector<std::string> &extra = {}) {
        std::vector<std::string> argv{"--plugin-dir", SBX_ISOLATION_FIXTURES, "run", "--runs", "3"};
        argv.insert(argv.end(), extra.begin(), extra.end());
        return runner(argv);
    }
    // The one plugin_failures row: plugin, failure, run id, request file, replay line.
    std::vector<std::string> failure_row() {
        const auto rows = query(
            "SELECT plugin_id, failure, COALESCE(run_id, ''), request_file, replay, context FROM "
            "plugin_failures");
        EXPECT_EQ(rows.size(), 1u);
        return rows.empty() ? std::vector<std::string>(6) : rows[0];
    }
};

TEST_F(FaultyPlugins, ACrashingCollectorIsDisabledEveryRunIsRecordedAndTheRequestReplaysIt) {
    settings_for("segv", "answer");
    const auto result = run_three();
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(query("SELECT count(*) FROM runs")[0][0], "3") << "every run is recorded";
    EXPECT_EQ(query("SELECT status FROM sessions")[0][0], "finished");
    const auto row = failure_row();
    EXPECT_EQ(row[0], "misbehaving_collector");
    EXPECT_EQ(row[1], "crash");
    EXPECT_EQ(row[2], query("SELECT min(id) FROM runs")[0][0]) << "the run it failed in";
    EXPECT_NE(row[5].find("phase run"), std::string::npos) << row[5];
    // One warning, naming the plugin, where, the request and the replay line.
    const std::string warning = "crashed with SIGSEGV in collect";
    const auto first = result.err.find(warning);
    ASSERT_NE(first, std::string::npos) << result.err;
    EXPECT_EQ(result.err.find(warning, first + 1), std::string::npos)
        << "one warning, not one per run:\n"
        << result.err;
    EXPECT_NE(result.err.find("request: " + row[3]), std::string::npos) << result.err;
    EXPECT_TRUE(std::filesystem::exists(row[3])) << row[3];
    // (The path is quoted for a shell when it holds a space.)
    EXPECT_NE(row[4].find(kCollector), std::string::npos) << row[4];
    EXPECT_NE(row[4].find(" --call collect --request "), std::string::npos) << row[4];
    EXPECT_NE(row[3].find("/plugin-failures/misbehaving_collector-1.json"), std::string::npos);
    // The process_metrics numbers of later runs are still there; the collector's are not.
    EXPECT_EQ(query("SELECT count(*) FROM metrics WHERE name = 'answered'")[0][0], "0");
    // The saved request replays the crash, as printed.
    const auto replayed = paste(row[4], dir_);
    EXPECT_EQ(replayed.exit_code, 2) << replayed.err;
    EXPECT_NE(replayed.err.find("crashed with SIGSEGV in collect"), std::string::npos)
        << replayed.err;
}

TEST_F(FaultyPlugins, AHungCollectorIsKilledAtItsDeadlineAndTheRunsGoOn) {
    settings_for("hang", "answer",
                 "plugin_host: {overrides: {misbehaving_collector: {call_deadline_s: 0.5}}}\n");
    const auto result = run_three();
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(query("SELECT count(*) FROM runs")[0][0], "3");
    EXPECT_EQ(failure_row()[1], "hang");
    EXPECT_NE(result.err.find("did not answer within 0.5 s"), std::string::npos) << result.err;
}

TEST_F(FaultyPlugins, ALeakingCollectorMeetsItsMemoryLimitAsANamedError) {
    settings_for("leak", "answer",
                 "plugin_host: {overrides: {misbehaving_collector: {memory_mb: 160}}}\n");
    // One worker: each worker's cells call a plugin instance (a process) of their own, and
    // 64 MiB a call meets the limit only where one process makes three calls; with two
    // workers the calls were sometimes split two and two, and nothing leaked to the limit.
    const auto result = run_three({"--workers", "1"});
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(query("SELECT count(*) FROM runs")[0][0], "3");
    EXPECT_EQ(failure_row()[1], "memory") << result.err;
    EXPECT_NE(result.err.find("ran out of memory at its limit of 160 MiB"), std::string::npos)
        << result.err;
}

TEST_F(FaultyPlugins, GarbageAnswersOfACollectorAndAPredictorDisableBoth) {
    settings_for("not_json", "not_json");
    const auto result = run_three({"--json"});
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(query("SELECT count(*) FROM runs")[0][0], "3");
    const auto rows = query("SELECT plugin_id, failure FROM plugin_failures ORDER BY plugin_id");
    ASSERT_EQ(rows.size(), 2u) << result.err;
    EXPECT_EQ(rows[0], (std::vector<std::string>{"misbehaving_collector", "bad_answer"}));
    EXPECT_EQ(rows[1], (std::vector<std::string>{"misbehaving_predictor", "bad_answer"}));
    const auto printed = nlohmann::json::parse(result.out);
    ASSERT_EQ(printed["disabled_plugins"].size(), 2u) << result.out;
    EXPECT_EQ(printed["disabled_plugins"][0]["failure"], "bad_answer");
}

TEST_F(FaultyPlugins, ALeakingOrHungPredictorLeavesTheForecastAbsentAndStrictExits3) {
    settings_for("answer", "leak",
                 "plugin_host: {strict: true, overrides: {misbehaving_predictor: {memory_mb: "
                 "100}}}\n");
    // Each cell asks for several forecasts (ROI and every metric): the leak meets 100 MiB.
    const auto result = run_three();
    EXPECT_EQ(result.exit_code, 3) << "plugin_host.strict asks for exit 3\n" << result.err;
    EXPECT_EQ(query("SELECT count(*) FROM runs")[0][0], "3");
    EXPECT_EQ(query("SELECT status FROM sessions")[0][0], "finished");
    EXPECT_EQ(failure_row()[1], "memory") << result.err;
    EXPECT_NE(result.err.find("exit 3 as --strict-plugins"), std::string::npos) << result.err;
    EXPECT_EQ(query("SELECT path FROM plugin_failures")[0][0], kPredictor);
}

TEST_F(FaultyPlugins, EveryReportFormatNamesTheDisabledPlugin) {
    settings_for("segv", "answer");
    const auto scenarios = runner({"--plugin-dir", SBX_ISOLATION_FIXTURES, "run-scenarios"});
    ASSERT_EQ(scenarios.exit_code, 0) << scenarios.err;
    EXPECT_NE(scenarios.err.find("plugin misbehaving_collector was disabled after a crash"),
              std::string::npos)
        << scenarios.err;
    for (const char *format : {"json", "markdown", "junit", "html"}) {
        const auto report = runner({"report", "--format", format});
        ASSERT_EQ(report.exit_code, 0) << format << ": " << report.err;
        // (Markdown escapes the underscore.)
        EXPECT_NE(report.out.find("misbehaving"), std::string::npos) << format << ":\n"
                                                                     << report.out;
        EXPECT_NE(report.out.find("crashed with SIGSEGV in collect"), std::string::npos) << format;
    }
}

// On a terminal, a predictor that keeps the host waiting is named on the progress line while
// it does, before its deadline ends it.
TEST_F(FaultyPlugins, TheProgressLineNamesAPluginThatKeepsTheHostWaiting) {
    settings_for("answer", "hang",
                 "plugin_host: {overrides: {misbehaving_predictor: {call_deadline_s: 2.5}}}\n");
    const auto result =
        sbx::test::run_in_pty({SBX_BINARY, "--config", settings_, "--data-dir", dir_ + "/data",
                               "--plugin-dir", SBX_ISOLATION_FIXTURES, "run"},
                              {"NO_COLOR=", "TERM=xterm"});
    EXPECT_EQ(result.exit_code, 0) << result.output;
    EXPECT_NE(result.output.find("waiting on plugin misbehaving_predictor (predict, 0:0"),
              std::string::npos)
        << result.output;
}

TEST_F(FaultyPlugins, AnIdTwoFilesProvideIsRefusedUnlessTheSettingsChooseOne) {
    write_settings(
        "presets: [{SCENARIO_NAME: calm}]\n"
        "workflows:\n  - name: wf\n    steps:\n      - run: [/bin/true]\n");
    const auto refused = runner({"--plugin-dir", SBX_SHADOW_FIXTURES, "run"});
    EXPECT_EQ(refused.exit_code, 2) << refused.err;
    EXPECT_NE(refused.err.find("plugin id 'process_metrics' is provided by two files: " +
                               std::string(kShadow) + " and "),
              std::string::npos)
        << refused.err;
    EXPECT_NE(refused.err.find(SBX_BUILT_IN_PLUGINS "/metrics/process_metrics.so"),
              std::string::npos)
        << refused.err;
    EXPECT_FALSE(std::filesystem::exists(dir_ + "/data/metrics.db")) << "refused before any run";

    // The settings say which one: the built-in, and the run measures again.
    write_settings("plugin_host: {overrides: {process_metrics: {path: " SBX_BUILT_IN_PLUGINS
                   "/metrics/process_metrics.so}}}\n"
                   "presets: [{SCENARIO_NAME: calm}]\n"
                   "workflows:\n  - name: wf\n    steps:\n      - run: [/bin/true]\n");
    const auto chosen = runner({"--plugin-dir", SBX_SHADOW_FIXTURES, "run"});
    EXPECT_EQ(chosen.exit_code, 0) << chosen.err;
    EXPECT_NE(query("SELECT value FROM metrics WHERE name = 'max_rss_kb'")[0][0], "0");

    // verify says the id is taken.
    const auto verify = runner({"--plugin-dir", SBX_SHADOW_FIXTURES, "plugins", "verify", kShadow});
    EXPECT_NE(verify.err.find("note: id 'process_metrics' is already provided by"),
              std::string::npos)
        << verify.err;
}

}  // namespace
