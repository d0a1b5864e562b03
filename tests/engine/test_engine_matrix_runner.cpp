// The matrix's worker pool (engine/matrix_runner.hpp) with real plugins: several workers
// take the runs of several cells at once, each with its own plugin instances, all writing
// through one Store. tools/sanitize tsan runs this under ThreadSanitizer.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "command.hpp"
#include "config/load_settings.hpp"
#include "engine/matrix_runner.hpp"
#include "engine/plugin_set.hpp"
#include "plugins/registry.hpp"
#include "presets/preset.hpp"
#include "store/store.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

class MatrixRunnerTest : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = sbx::test::make_temp_dir("sbx-matrix-runner-");
        // A workflow whose one step echoes its input: every run passes, so a lost or doubled
        // run shows in the counts.
        settings_ = sbx::config::load_settings_text(
            "plugin_dirs: [\"" SBX_PLUGIN_DIR
            "\"]\n"
            // No injector: the worker pool is under test, and a settings file without
            // `injectors:` gets the default ones (not built for this test).
            "injectors: []\n"
            "data_dir: \"" +
                dir_ +
                "/data\"\n"
                "workflows:\n"
                "  - name: echo\n"
                "    steps:\n"
                "      - run: [/bin/echo, \"{{input.word}}\"]\n"
                "        inputs: {word: {type: string, example: hello}}\n",
            "matrix_runner_test.yaml");
        registry_.scan({SBX_PLUGIN_DIR});
        // Every plugin opened here, on the main thread, before any worker exists. Opened
        // lazily by a worker (a preset's stub strategy), a library with thread-local storage
        // leaves the main thread's dynamic-TLS record in a state LeakSanitizer's exit scan
        // crashes on ("DTLS 6 at 0x423-...", "Tracer caught signal 11"; glibc 2.36,
        // clang 14). The product opens them lazily; this test is about the worker pool.
        (void)registry_.plugins();
    }
    void TearDown() override { fs::remove_all(dir_); }

    std::string dir_;
    sbx::config::Settings settings_;
    // The built-in plugins, trusted as the CLI trusts them: in process.
    sbx::plugins::Registry registry_{{}, {SBX_PLUGIN_DIR}};
};

// A session's store and the first worker's plugins: what a matrix runs with.
struct MatrixAtHand {
    MatrixAtHand(const std::string &dir, const sbx::config::Settings &settings,
                 const sbx::plugins::Registry &registry)
        : store(fs::path(dir) / "metrics.db"),
          primary(settings, registry),
          context{settings, registry, store, store.begin_session("matrix runner test", "test", 7),
                  dir,      dir} {}
    sbx::store::Store store;
    sbx::engine::PluginSet primary;
    sbx::engine::MatrixContext context;
};

TEST_F(MatrixRunnerTest, SeveralWorkersRunEveryRunOfEveryCellOnce) {
    MatrixAtHand matrix(dir_, settings_, registry_);
    const auto *workflow = settings_.find_workflow("echo");
    ASSERT_NE(workflow, nullptr);
    std::vector<sbx::engine::CellPlan> plans;
    for (int cell = 0; cell < 4; ++cell) {
        const json body = {{"SCENARIO_NAME", "cell" + std::to_string(cell)}};
        plans.push_back(
            {workflow, sbx::presets::make_preset(body, "test", cell), {3, cell, cell % 2 == 1}});
    }
    const auto summaries = sbx::engine::MatrixRunner(matrix.context, matrix.primary, 3).run(plans);
    ASSERT_EQ(summaries.size(), plans.size());
    for (size_t i = 0; i < summaries.size(); ++i) {
        EXPECT_EQ(summaries[i].preset, "cell" + std::to_string(i));
        EXPECT_EQ(summaries[i].runs, 3) << summaries[i].preset;
        std::string failures;
        for (const auto &[reason, count] : summaries[i].failures) {
            failures += "\n  " + std::to_string(count) + "x " + reason;
        }
        EXPECT_EQ(summaries[i].passed, 3) << summaries[i].preset << failures;
        EXPECT_EQ(summaries[i].flag, i % 2 == 1 ? "off" : "on");
    }
}

// A robustness cell whose program gives coverage runs in rounds (engine/cell_rounds.hpp):
// the workers wait for a round to end while a plain cell's runs fill the wait, every run is
// made once, and the later rounds are the corpus's. Under ThreadSanitizer this is the path
// where a worker writes the next round's inputs while others run other cells.
TEST_F(MatrixRunnerTest, ACellThatLearnsFromCoverageRunsInRoundsBesideAPlainOne) {
    const std::string binary = dir_ + "/courier_orders";
    const auto compiled = sbx::test::run_command(
        {"/usr/bin/gcc", "--coverage", "-O0", SBX_COURIER_ORDERS_SOURCE, "-o", binary}, {}, dir_);
    ASSERT_EQ(compiled.exit_code, 0) << compiled.err;
    auto settings = sbx::config::load_settings_text(
        "plugin_dirs: [\"" SBX_PLUGIN_DIR
        "\"]\n"
        "injectors: [coverage_capture]\n"
        "metrics: [process_metrics, coverage]\n"
        "data_dir: \"" +
            dir_ +
            "/data\"\n"
            "workflows:\n"
            "  - name: orders\n"
            "    steps:\n"
            "      - run: [\"" +
            binary +
            "\"]\n"
            "        stdin: \"{{input.order}}\"\n"
            "        inputs:\n"
            "          order: {type: json, example: '{\"id\": 1, \"note\": \"hi\", \"shipping\": "
            "{\"method\": \"post\", \"days\": 2}}'}\n"
            "        rejects: {exit_codes: [2]}\n",
        "rounds_test.yaml");
    MatrixAtHand matrix(dir_, settings, registry_);
    const auto *workflow = settings.find_workflow("orders");
    ASSERT_NE(workflow, nullptr);
    const json hostile = {{"SCENARIO_NAME", "hostile_input"}, {"FAILURE_MODES", "hostile_input"}};
    const json normal = {{"SCENARIO_NAME", "normal"}};
    const std::vector<sbx::engine::CellPlan> plans = {
        {workflow, sbx::presets::make_preset(hostile, "test", 0), {45, 3, false}},
        {workflow, sbx::presets::make_preset(normal, "test", 1), {12, 3, false}}};
    const auto summaries = sbx::engine::MatrixRunner(matrix.context, matrix.primary, 3).run(plans);
    ASSERT_EQ(summaries.size(), 2U);
    EXPECT_EQ(summaries[0].runs, 45);
    EXPECT_EQ(summaries[1].runs, 12);
    EXPECT_EQ(summaries[0].metrics.at("feedback_runs"), 45 - 13) << "rounds after the first 13";
    EXPECT_GE(summaries[0].metrics.at("feedback_inputs"), 1) << "an input reached new lines";
    EXPECT_EQ(summaries[1].metrics.count("feedback_runs"), 0U) << "a normal cell runs at once";
    sbx::store::Statement runs(matrix.store.connection().get(),
                               "SELECT COUNT(*), COUNT(DISTINCT repetition) FROM runs WHERE "
                               "preset_id = (SELECT id FROM presets WHERE name = 'hostile_input')");
    ASSERT_TRUE(runs.step());
    EXPECT_EQ(runs.column_int(0), 45);
    EXPECT_EQ(runs.column_int(1), 45) << "each repetition once";
}

}  // namespace
