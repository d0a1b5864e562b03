// Plugin answers in real runs keep the same contracts `plugins verify` checks: a broken one
// is exit 3 naming the plugin, its file and the call, never a library error or a value
// silently dropped. The plugins are third-party ones, built here with only the SDK.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "command.hpp"

namespace {

using sbx::test::CommandResult;
using sbx::test::run_command;

class AnswerContracts : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        plugin_dir_ = sbx::test::make_temp_dir("sbx-answer-contracts-");
        for (const auto &[name, define] :
             {std::pair<std::string, std::string>{"scripted_metrics", "-DSCRIPTED_METRICS"},
              {"scripted_predictor", "-DSCRIPTED_PREDICTOR"}}) {
            const std::string version_script =
                std::string("-Wl,--version-script=") + SBX_SDK_INCLUDE + "/../cmake/sbx_plugin.map";
            std::string output = plugin_dir_;
            output.append("/").append(name).append(".so");
            const auto build =
                run_command({SBX_CXX, "-std=c++17", "-shared", "-fPIC", "-fvisibility=hidden",
                             define, "-I", SBX_SDK_INCLUDE, version_script, "-Wl,-z,defs",
                             SBX_SCRIPTED_FIXTURE, "-o", output});
            ASSERT_EQ(build.exit_code, 0) << build.err;
        }
    }
    static void TearDownTestSuite() { std::filesystem::remove_all(plugin_dir_); }

    void SetUp() override { dir_ = sbx::test::make_temp_dir("sbx-answer-run-"); }
    void TearDown() override { std::filesystem::remove_all(dir_); }

    // One run of /bin/true with the scripted collector (and predictor) answering `metrics`
    // (and `forecast`; "" keeps the built-in ema), each logging its requests; the collector's
    // cell phase answers `cell_answer` when one is given.
    CommandResult run(const std::string &metrics, const std::string &forecast = "",
                      const std::string &cell_answer = "") {
        std::ofstream settings(dir_ + "/settings.yaml");
        settings << "metrics: [scripted_metrics]\n"
                 << (forecast.empty() ? "" : "predictor: scripted_predictor\n")
                 << "plugins:\n  scripted_metrics:\n    answer: " << nlohmann::json(metrics).dump()
                 << "\n    requests: " << nlohmann::json(dir_ + "/collect.log").dump() << "\n";
        if (!cell_answer.empty()) {
            settings << "    cell_answer: " << nlohmann::json(cell_answer).dump() << "\n";
        }
        if (!forecast.empty()) {
            settings << "  scripted_predictor:\n    answer: " << nlohmann::json(forecast).dump()
                     << "\n    requests: " << nlohmann::json(dir_ + "/predict.log").dump() << "\n";
        }
        settings << "presets: [{SCENARIO_NAME: calm}]\nworkflows:\n  - name: wf\n    steps:\n"
                    "      - name: first\n        run: [/bin/true]\n";
        settings.close();
        return run_command({SBX_BINARY, "--config", dir_ + "/settings.yaml", "--plugin-dir",
                            plugin_dir_, "--data-dir", dir_ + "/data", "run", "--json"});
    }

    std::string plugin_path(const std::string &id) const { return plugin_dir_ + "/" + id + ".so"; }

    std::string read(const std::string &name) const {
        std::ifstream in(dir_ + "/" + name);
        std::stringstream text;
        text << in.rdbuf();
        return text.str();
    }

    static std::string plugin_dir_;
    std::string dir_;
};

std::string AnswerContracts::plugin_dir_;

// A broken answer is the plugin's defect: it is named, the plugin is disabled, and the run
// goes on (exit 0: collectors and predictors are optional; tests/plugins/test_faulty_plugins).
TEST_F(AnswerContracts, ANonNumericMetricNamesThePluginItsFileAndTheCall) {
    const auto result = run(R"({"latency_ms": 3, "ok": true})");
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.err.find("disabled for the rest of this command"), std::string::npos)
        << result.err;
    EXPECT_NE(result.err.find("plugin 'scripted_metrics' (" + plugin_path("scripted_metrics") +
                              ") answered collect with an answer that breaks its contract "
                              "(/ok: expected number or null or object, got boolean true)"),
              std::string::npos)
        << result.err;
}

TEST_F(AnswerContracts, TextThatIsNotJsonIsQuotedNotALibraryError) {
    const auto result = run("ok then");
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.err.find("answered collect with text that is not JSON: ok then"),
              std::string::npos)
        << result.err;
    EXPECT_EQ(result.err.find("json.exception"), std::string::npos) << result.err;
}

TEST_F(AnswerContracts, ANullMetricIsNotMeasuredAndTheNumbersAreKept) {
    const auto result = run(R"({"latency_ms": null, "score": 2})");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const auto report = nlohmann::json::parse(result.out);
    const auto &metrics = report["cells"][0]["metrics"];
    EXPECT_DOUBLE_EQ(metrics.value("score", -1.0), 2.0) << metrics;
    EXPECT_FALSE(metrics.contains("latency_ms")) << metrics;
}

// {"value", "aggregate"} says how a cell folds a metric's runs; the text report lists what
// the collector measured under its table.
TEST_F(AnswerContracts, ADeclaredAggregationFoldsTheRunsAndTheTextReportListsTheMetric) {
    ASSERT_EQ(
        run(R"({"requests": {"value": 2, "aggregate": "sum"}, "score": 2})", "", "{}").exit_code,
        0);
    const std::vector<std::string> three_runs{
        SBX_BINARY,  "--config",   dir_ + "/settings.yaml", "--plugin-dir",
        plugin_dir_, "--data-dir", dir_ + "/data",          "run",
        "--runs",    "3"};
    auto as_json = three_runs;
    as_json.push_back("--json");
    const auto result = run_command(as_json);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const auto report = nlohmann::json::parse(result.out);
    const auto &metrics = report["cells"][0]["metrics"];
    EXPECT_DOUBLE_EQ(metrics.value("requests", -1.0), 6.0) << "a sum over 3 runs: " << metrics;
    EXPECT_DOUBLE_EQ(metrics.value("score", -1.0), 2.0) << "the mean, undeclared: " << metrics;
    const auto text = run_command(three_runs);
    ASSERT_EQ(text.exit_code, 0) << text.err;
    EXPECT_NE(text.out.find("metrics:\n  calm: requests=6 score=2\n"), std::string::npos)
        << text.out;
    const auto malformed = run(R"({"requests": {"value": 2, "aggregate": "median"}})");
    EXPECT_EQ(malformed.exit_code, 0) << malformed.err;
    EXPECT_NE(malformed.err.find("(/requests/aggregate: "), std::string::npos) << malformed.err;
    EXPECT_NE(malformed.err.find(R"((got "median"))"), std::string::npos) << malformed.err;
}

TEST_F(AnswerContracts, AForecastThatIsTextOrOutOfRangeOrInvertedIsRefused) {
    const std::pair<const char *, const char *> cases[] = {
        {R"({"value": "0.5"})", R"(/value: expected number or null, got string "0.5")"},
        {R"({"value": 1.7})", "value 1.7 is outside [0, 1]"},
        {R"({"value": 0.5, "lower": 0.6, "upper": 0.4})", "lower 0.6 is above upper 0.4"},
    };
    for (const auto &[answer, problem] : cases) {
        const auto result = run("{}", answer);
        EXPECT_EQ(result.exit_code, 0) << answer << ": " << result.err;
        EXPECT_NE(result.err.find("plugin 'scripted_predictor' (" +
                                  plugin_path("scripted_predictor") + ") answered predict"),
                  std::string::npos)
            << result.err;
        EXPECT_NE(result.err.find(problem), std::string::npos) << answer << ": " << result.err;
    }
    const auto kept = run("{}", R"({"value": 0.9, "lower": 0.8, "upper": 1.0})");
    EXPECT_EQ(kept.exit_code, 0) << kept.err;
}

TEST_F(AnswerContracts, RequestsSayWhichWorkflowScenarioStepAndSeries) {
    const auto result = run("{}", R"({"value": 1.0})");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    std::istringstream collects(read("collect.log"));
    std::string line;
    ASSERT_TRUE(std::getline(collects, line));
    const auto run_request = nlohmann::json::parse(line);
    EXPECT_EQ(run_request["phase"], "run");
    EXPECT_EQ(run_request["workflow"], "wf");
    EXPECT_EQ(run_request["scenario"], "calm");
    EXPECT_EQ(run_request["flag"], "on");
    EXPECT_EQ(run_request["repetition"], 0);
    EXPECT_EQ(run_request["session"], 1);
    EXPECT_EQ(run_request["step_names"], nlohmann::json::array({"first"}));
    std::string last;
    while (std::getline(collects, line)) {
        last = line;
    }
    const auto cell_request = nlohmann::json::parse(last);
    EXPECT_EQ(cell_request["phase"], "cell");
    EXPECT_EQ(cell_request["session"], 1);
    EXPECT_EQ(cell_request["workflow"], "wf");
    EXPECT_EQ(cell_request["scenario"], "calm");
    // One request per series the cell extends: its ROI first, then each of its metrics.
    std::istringstream predicts(read("predict.log"));
    std::string first_predict;
    std::getline(predicts, first_predict);
    const auto predict_request = nlohmann::json::parse(first_predict);
    EXPECT_EQ(predict_request["subject"], "roi:wf:calm:on");
    EXPECT_EQ(predict_request["range"], nlohmann::json::array({0, 1}));
    std::string metric_predict;
    ASSERT_TRUE(std::getline(predicts, metric_predict)) << "the cell's metrics are series too";
    const std::string metric_subject = nlohmann::json::parse(metric_predict)["subject"];
    EXPECT_NE(metric_subject.rfind("roi:", 0), 0u) << metric_subject;
    EXPECT_EQ(metric_subject.substr(metric_subject.find(':')), ":wf:calm:on") << metric_subject;
    EXPECT_EQ(predict_request["metric"], "roi");
    EXPECT_EQ(predict_request["series"], nlohmann::json::array({1.0}));
    // When each point was measured: the cell's finished_at, ISO 8601 UTC.
    ASSERT_EQ(predict_request["timestamps"].size(), 1u) << predict_request;
    const std::string when = predict_request["timestamps"][0];
    EXPECT_EQ(when.size(), std::string("2026-11-25T22:52:42.429Z").size()) << when;
    EXPECT_EQ(when.back(), 'Z') << when;
}

}  // namespace
