// Rankings over a hand-built metrics.db: only on-cells count, presets group by name, the
// newest on-cell's security_score wins, synergy splits sections from workflow sets, and a
// database mixes with a roi_history.json.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "command.hpp"
#include "ranking/ranking.hpp"
#include "store/matrix_records.hpp"
#include "store/store.hpp"
#include "util/errors.hpp"

namespace {

namespace fs = std::filesystem;
using namespace sbx::ranking;
using sbx::store::CellRecord;
using sbx::store::Store;

class DatabaseTotals : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = sbx::test::make_temp_dir("sbx-ranking-");
        Store store(db());
        const int64_t session = store.begin_session("run-scenarios wf", "test", 1);
        const int64_t a = store.preset_id("scenario_a", {{"SCENARIO_NAME", "scenario_a"}});
        // The same scenario name with another body is another preset row, one scenario.
        const int64_t a2 =
            store.preset_id("scenario_a", {{"SCENARIO_NAME", "scenario_a"}, {"X", "1"}});
        const int64_t b = store.preset_id("scenario_b", {{"SCENARIO_NAME", "scenario_b"}});
        const auto cell = [&](int64_t preset, const char *flag, double roi,
                              const std::map<std::string, double> &metrics = {}) {
            store.record_cell(CellRecord{session, "wf", preset, flag, 4, 0, roi, metrics, ""});
        };
        cell(a, "on", 0.75, {{"security_score", 0.5}});
        cell(a, "off", 1.0, {{"security_score", 0.1}});  // counterfactuals never count
        cell(b, "on", 1.0, {{"max_rss_kb", 2048}});
        cell(a2, "on", 0.5, {{"security_score", 0.82}});
        cell(a, "on", 0.25);  // newest, but without a security_score
        cell(a, "off", 0.0, {{"security_score", 0.2}});
        // A run-level metric of that name is not a cell's.
        sbx::store::RunRecord run;
        run.session_id = session;
        run.workflow = "wf";
        run.preset_id = b;
        run.started_at = "2024-01-01T00:00:00.000Z";
        run.metrics = {{"security_score", 0.99}};
        store.record_run(run);

        sbx::store::record_synergy(store, session, "sections", "scenario_a",
                                   {{"synergy_roi", 0.5}, {"synergy_cpu_s", 1.0}});
        sbx::store::record_synergy(store, session, "workflows", "scenario_a",
                                   {{"synergy_roi", 0.25}, {"synergy_security_score", 0.125}});
        sbx::store::record_synergy(store, session, "workflows", "scenario_b",
                                   {{"synergy_roi", -0.25}});
    }
    void TearDown() override { fs::remove_all(dir_); }
    fs::path db() const { return fs::path(dir_) / "data" / "metrics.db"; }
    std::string dir_;
};

TEST_F(DatabaseTotals, SumsOnCellsPerScenarioNameWithTheNewestSecurityScore) {
    const auto rows =
        rank_scenarios(resolve_sources({dir_ + "/data"}), WorkflowGrouping::each_workflow);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].workflow, "wf");
    EXPECT_EQ(rows[0].scenario, "scenario_a");
    EXPECT_DOUBLE_EQ(rows[0].roi, 1.5);  // 0.75 + 0.5 + 0.25
    EXPECT_EQ(rows[0].security_score, 0.82);
    EXPECT_EQ(rows[1].scenario, "scenario_b");
    EXPECT_DOUBLE_EQ(rows[1].roi, 1.0);
    EXPECT_FALSE(rows[1].security_score.has_value());
}

TEST_F(DatabaseTotals, MixesWithAHistoryFileAndAddsUp) {
    const auto history = (fs::path(dir_) / "h.json").string();
    std::ofstream(history) << R"({"format": "sandbox-runner/roi_history/1", "scenarios": {
        "scenario_b": {"roi": [1.0, 0.75], "metrics": {"security_score": [0.6]}},
        "normal": {"roi": [0.5]}}})";
    // Across workflows: the history file records none, the database's is "wf".
    const auto rows =
        rank_scenarios(resolve_sources({db().string(), history}), WorkflowGrouping::all_workflows);
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[0].scenario, "scenario_b");
    EXPECT_DOUBLE_EQ(rows[0].roi, 2.75);
    EXPECT_EQ(rows[0].security_score, 0.6);
    EXPECT_EQ(rows[1].scenario, "scenario_a");
    EXPECT_EQ(rows[2].scenario, "normal");
    for (const auto &row : rows) {
        EXPECT_EQ(row.workflow, "");
    }
    // Per workflow: the history's scenarios are a ranking of their own, first ("" sorts first).
    const auto apart =
        rank_scenarios(resolve_sources({db().string(), history}), WorkflowGrouping::each_workflow);
    ASSERT_EQ(apart.size(), 4u);
    EXPECT_EQ(apart[0].workflow + "/" + apart[0].scenario, "/scenario_b");
    EXPECT_DOUBLE_EQ(apart[0].roi, 1.75);
    EXPECT_EQ(apart[1].workflow + "/" + apart[1].scenario, "/normal");
    EXPECT_EQ(apart[2].workflow + "/" + apart[2].scenario, "wf/scenario_a");
    EXPECT_EQ(apart[3].workflow + "/" + apart[3].scenario, "wf/scenario_b");
    EXPECT_DOUBLE_EQ(apart[3].roi, 1.0);
}

// Two workflows are two programs: the same scenario ranks once in each, with its own totals,
// and --all-workflows adds them up.
TEST_F(DatabaseTotals, RanksEachWorkflowApartUnlessAskedForAll) {
    {
        sbx::store::Store store(db());
        const int64_t session = store.begin_session("run api", "test", 1);
        const int64_t a = store.preset_id("scenario_a", {{"SCENARIO_NAME", "scenario_a"}});
        const int64_t b = store.preset_id("scenario_b", {{"SCENARIO_NAME", "scenario_b"}});
        store.record_cell(CellRecord{session, "api", a, "on", 4, 0, 0.125, {}, ""});
        store.record_cell(CellRecord{session, "api", b, "on", 4, 0, 2.0, {}, ""});
    }
    const auto sources = resolve_sources({dir_ + "/data"});
    const auto apart = rank_scenarios(sources, WorkflowGrouping::each_workflow);
    ASSERT_EQ(apart.size(), 4u);
    EXPECT_EQ(apart[0].workflow + "/" + apart[0].scenario, "api/scenario_b");
    EXPECT_EQ(apart[1].workflow + "/" + apart[1].scenario, "api/scenario_a");
    EXPECT_DOUBLE_EQ(apart[1].roi, 0.125);
    EXPECT_EQ(apart[1].cells, 1);
    EXPECT_EQ(apart[2].workflow + "/" + apart[2].scenario, "wf/scenario_a");
    EXPECT_DOUBLE_EQ(apart[2].roi, 1.5);
    EXPECT_EQ(apart[2].cells, 3);
    EXPECT_EQ(apart[3].workflow + "/" + apart[3].scenario, "wf/scenario_b");

    const auto all = rank_scenarios(sources, WorkflowGrouping::all_workflows);
    ASSERT_EQ(all.size(), 2u);
    EXPECT_EQ(all[0].scenario, "scenario_b");
    EXPECT_DOUBLE_EQ(all[0].roi, 3.0);
    EXPECT_EQ(all[1].scenario, "scenario_a");
    EXPECT_DOUBLE_EQ(all[1].roi, 1.625);
    EXPECT_EQ(all[1].cells, 4);
}

TEST_F(DatabaseTotals, SynergyCountsEverySubjectScenarioSynergyOnlyWorkflowSets) {
    const auto sources = resolve_sources({dir_ + "/data"});
    const auto all = rank_synergy(sources, "roi");
    ASSERT_EQ(all.rows.size(), 2u);
    EXPECT_EQ(all.rows[0].scenario, "scenario_a");
    EXPECT_DOUBLE_EQ(all.rows[0].value, 0.75);
    EXPECT_DOUBLE_EQ(all.rows[1].value, -0.25);

    const auto workflows = rank_scenario_synergy(sources, "synergy_roi");
    ASSERT_EQ(workflows.rows.size(), 2u);
    EXPECT_EQ(workflows.rows[0].scenario, "scenario_a");
    EXPECT_DOUBLE_EQ(workflows.rows[0].value, 0.25);
    EXPECT_DOUBLE_EQ(workflows.rows[1].value, -0.25);

    const auto security = rank_scenario_synergy(sources, "security_score");
    ASSERT_EQ(security.rows.size(), 1u);
    EXPECT_DOUBLE_EQ(security.rows[0].value, 0.125);
    EXPECT_DOUBLE_EQ(rank_synergy(sources, "cpu_s").rows.at(0).value, 1.0);
    // Sections recorded synergy_cpu_s, workflow sets did not.
    try {
        rank_scenario_synergy(sources, "cpu_s");
        FAIL() << "no InputError";
    } catch (const sbx::InputError &e) {
        EXPECT_STREQ(e.what(),
                     "no RUN records synergy_cpu_s; recorded synergy metrics: synergy_roi, "
                     "synergy_security_score (pass --metric with one of them, with or without "
                     "synergy_)");
    }
}

TEST_F(DatabaseTotals, AFileThatIsNoDatabaseIsAnInputError) {
    const auto path = (fs::path(dir_) / "broken.db").string();
    std::ofstream(path) << std::string("SQLite format 3") + '\0' + std::string(200, 'x');
    try {
        rank_scenarios(resolve_sources({path}), WorkflowGrouping::each_workflow);
        FAIL() << "no InputError";
    } catch (const sbx::InputError &e) {
        EXPECT_EQ(std::string(e.what()).rfind(path + ": cannot read this metrics.db (", 0), 0u)
            << e.what();
    }
}

}  // namespace
