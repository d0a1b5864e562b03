// The results database on a real SQLite file: schema, WAL, a run with its steps and
// metrics in one transaction, ROI history, and refusal of a newer schema.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sbx/process_identity.hpp>

#include <filesystem>

#include "command.hpp"
#include "schema_history.hpp"
#include "store/matrix_records.hpp"
#include "store/migrations.hpp"
#include "store/store.hpp"
#include "util/errors.hpp"

namespace {

using sbx::store::Store;

class StoreTest : public ::testing::Test {
  protected:
    void SetUp() override { dir_ = sbx::test::make_temp_dir("sbx-store-"); }
    void TearDown() override { std::filesystem::remove_all(dir_); }
    std::filesystem::path db() const { return std::filesystem::path(dir_) / "data" / "metrics.db"; }
    std::string dir_;
};

int64_t count(Store &store, const std::string &table) {
    sbx::store::Statement query(store.connection().get(), "SELECT count(*) FROM " + table);
    query.step();
    return query.column_int(0);
}

TEST_F(StoreTest, CreatesTheFileInWalModeAtTheLatestSchema) {
    Store store(db());
    EXPECT_TRUE(std::filesystem::exists(db()));
    EXPECT_EQ(store.schema_version(), sbx::store::latest_schema_version());
    sbx::store::Statement mode(store.connection().get(), "PRAGMA journal_mode");
    mode.step();
    EXPECT_EQ(mode.column_text(0), "wal");
}

TEST_F(StoreTest, RecordsARunWithItsStepsAndMetrics) {
    Store store(db());
    const auto session = store.begin_session("run demo", "test.yaml", 7);
    const auto preset = store.preset_id("normal", {{"SCENARIO_NAME", "normal"}});
    EXPECT_EQ(store.preset_id("normal", {{"SCENARIO_NAME", "normal"}}), preset);
    sbx::store::RunRecord run;
    run.session_id = session;
    run.workflow = "demo";
    run.preset_id = preset;
    run.passed = false;
    run.failed_step = "get";
    run.started_at = sbx::store::utc_now();
    run.outcome = "failed";
    run.steps = {
        {"put", true, {{"status", "OK"}, {"exit_code", 0}, {"wall_s", 0.01}}, "", "accepted"},
        {"get",
         false,
         {{"status", "RE"}, {"exit_code", 4}, {"stdout", "\xff bad utf8"}},
         "",
         "failed"}};
    run.metrics = {{"success", 0.0}, {"wall_s", 0.02}};
    store.record_run(run);
    EXPECT_EQ(count(store, "runs"), 1);
    EXPECT_EQ(count(store, "steps"), 2);
    EXPECT_EQ(count(store, "metrics"), 2);
    sbx::store::Statement step(store.connection().get(),
                               "SELECT status, exit_code, steps.outcome, runs.outcome FROM steps "
                               "JOIN runs ON runs.id = steps.run_id WHERE position = 1");
    ASSERT_TRUE(step.step());
    EXPECT_EQ(step.column_text(0), "RE");
    EXPECT_EQ(step.column_int(1), 4);
    EXPECT_EQ(step.column_text(2), "failed");
    EXPECT_EQ(step.column_text(3), "failed");
}

TEST_F(StoreTest, AVersion11DatabaseKeepsWhenItsSessionsFailedAndCountsRecoveries) {
    int64_t interrupted = 0;
    int64_t finished = 0;
    {
        Store made(db());
        interrupted = made.begin_session("run demo", "test.yaml", 7);
        made.finish_session(interrupted, "interrupted");
        finished = made.begin_session("run demo", "test.yaml", 8);
        made.finish_session(finished, "finished");
        sbx::test::drop_operations_columns(made.connection());
        made.connection().exec("PRAGMA user_version = 11");
    }
    Store store(db());
    sbx::store::Statement sessions(store.connection().get(),
                                   "SELECT id, recoveries, failed_at IS NOT NULL, failed_at = "
                                   "finished_at FROM sessions ORDER BY id");
    ASSERT_TRUE(sessions.step());
    EXPECT_EQ(sessions.column_int(0), interrupted);
    EXPECT_EQ(sessions.column_int(1), 0);
    EXPECT_EQ(sessions.column_int(2), 1) << "an interrupted session failed when it ended";
    EXPECT_EQ(sessions.column_int(3), 1);
    ASSERT_TRUE(sessions.step());
    EXPECT_EQ(sessions.column_int(2), 0) << "a finished one never failed";
    // A recovery counts, and keeps when it failed.
    sbx::store::reopen_session(store, interrupted);
    store.finish_session(interrupted, "finished");
    sbx::store::Statement after(store.connection().get(),
                                "SELECT recoveries, failed_at IS NOT NULL FROM sessions WHERE "
                                "id = ?");
    after.bind(1, interrupted);
    ASSERT_TRUE(after.step());
    EXPECT_EQ(after.column_int(0), 1);
    EXPECT_EQ(after.column_int(1), 1);
}

TEST_F(StoreTest, AVersion4DatabaseGainsTheOutcomeColumns) {
    {
        Store made(db());
        sbx::test::drop_outcome_columns(made.connection());
        sbx::test::drop_session_owner_columns(made.connection());
        sbx::test::drop_cell_share_column(made.connection());
        sbx::test::drop_forecast_pair_columns(made.connection());
        sbx::test::restore_runs_by_session_index(made.connection());
        sbx::test::drop_run_error_columns(made.connection());
        sbx::test::drop_operations_columns(made.connection());
        sbx::test::drop_plugin_failures_table(made.connection());
        made.connection().exec("PRAGMA user_version = 4");
    }
    Store store(db());
    EXPECT_EQ(store.schema_version(), sbx::store::latest_schema_version());
    const auto session = store.begin_session("run demo", "test.yaml", 7);
    const auto preset = store.preset_id("hostile_input", {{"SCENARIO_NAME", "hostile_input"}});
    store.record_cell({session, "demo", preset, "on", 1, 1, 1.0, {}, "no input slot"});
    sbx::store::Statement cell(store.connection().get(), "SELECT not_applicable FROM cells");
    ASSERT_TRUE(cell.step());
    EXPECT_EQ(cell.column_text(0), "no input slot");
}

// The merge of Slurm shards asks for every run whether the session holds it already: one
// index search, also in a database made before the index (version 8), not a scan of the
// cell's runs.
TEST_F(StoreTest, ARunIsFoundByItsPlaceInOneIndexSearchAfterMigratingFromVersion8) {
    {
        Store made(db());
        sbx::test::restore_runs_by_session_index(made.connection());
        sbx::test::drop_run_error_columns(made.connection());
        sbx::test::drop_operations_columns(made.connection());
        sbx::test::drop_plugin_failures_table(made.connection());
        made.connection().exec("PRAGMA user_version = 8");
    }
    Store store(db());
    EXPECT_EQ(store.schema_version(), sbx::store::latest_schema_version());
    sbx::store::Statement plan(store.connection().get(),
                               "EXPLAIN QUERY PLAN SELECT 1 FROM runs WHERE session_id = 1 AND "
                               "workflow = 'w' AND preset_id = 1 AND flag = 'on' AND "
                               "repetition = 5");
    ASSERT_TRUE(plan.step());
    EXPECT_EQ(plan.column_text(3),
              "SEARCH runs USING COVERING INDEX runs_by_place (session_id=? AND workflow=? AND "
              "preset_id=? AND flag=? AND repetition=?)");
    EXPECT_EQ(count(store, "sqlite_master WHERE name = 'runs_by_session'"), 0)
        << "the shorter index goes: the longer one serves its queries";
}

TEST_F(StoreTest, AVersion7DatabaseKeepsItsForecastsAsShownAndUnpaired) {
    {
        Store made(db());
        const auto session = made.begin_session("run demo", "test.yaml", 7);
        made.record_prediction({session, "roi:demo:normal:on", "ema", 0.5, {}, {}, 1, "", true});
        sbx::test::drop_forecast_pair_columns(made.connection());
        sbx::test::restore_runs_by_session_index(made.connection());
        sbx::test::drop_run_error_columns(made.connection());
        sbx::test::drop_operations_columns(made.connection());
        sbx::test::drop_plugin_failures_table(made.connection());
        made.connection().exec("PRAGMA user_version = 7");
    }
    Store store(db());
    EXPECT_EQ(store.schema_version(), sbx::store::latest_schema_version());
    sbx::store::Statement row(
        store.connection().get(),
        "SELECT method, shown, actual IS NULL, chosen IS NULL FROM predictions");
    ASSERT_TRUE(row.step());
    EXPECT_EQ(row.column_text(0), "ema");
    EXPECT_EQ(row.column_int(1), 1);
    EXPECT_EQ(row.column_int(2), 1);
    EXPECT_EQ(row.column_int(3), 1);
}

TEST_F(StoreTest, RoiHistoryFollowsCellsInOrder) {
    Store store(db());
    const auto session = store.begin_session("run demo", "test.yaml", std::nullopt);
    const auto preset = store.preset_id("tight", {{"SCENARIO_NAME", "tight"}});
    for (double roi : {1.0, 0.5, 0.75}) {
        store.record_cell(
            {session, "demo", preset, "on", 4, static_cast<int>(roi * 4), roi, {}, ""});
    }
    store.record_cell({session, "demo", preset, "off", 4, 4, 1.0, {}, ""});
    EXPECT_EQ(store.roi_history("demo", "tight", "on"), (std::vector<double>{1.0, 0.5, 0.75}));
    EXPECT_TRUE(store.roi_history("demo", "normal", "on").empty());
}

TEST_F(StoreTest, RefusesADatabaseFromANewerSandboxRunner) {
    {
        Store store(db());
        store.connection().exec("PRAGMA user_version = 99");
    }
    try {
        Store again(db());
        FAIL() << "a newer schema must be refused";
    } catch (const sbx::EnvironmentError &e) {
        EXPECT_NE(std::string(e.what()).find("schema version 99"), std::string::npos) << e.what();
    }
}

}  // namespace

// A running session whose host process is gone is marked crashed by the next Store that
// opens the file, with how far it got; one whose host lives (this test) is left running.
TEST_F(StoreTest, ASessionOfAHostThatIsGoneIsMarkedCrashedOnOpen) {
    int64_t orphan = 0;
    int64_t live = 0;
    {
        Store made(db());
        orphan = made.begin_session("run demo", "test.yaml", 1);
        live = made.begin_session("run demo", "test.yaml", 2);
        // A child that has exited stands in for a host killed mid-run.
        const pid_t child = fork();
        if (child == 0) {
            _exit(0);
        }
        const std::string identity =
            sbx::ProcessIdentity{child, sbx::process_start_time(child)}.text();
        ASSERT_GE(waitpid(child, nullptr, 0), 0);
        char name[256] = {};
        gethostname(name, sizeof(name) - 1);
        sbx::store::Statement(made.connection().get(),
                              "UPDATE sessions SET host_process = ? WHERE id = ?")
            .bind(1, std::string(name) + " " + identity)
            .bind(2, orphan)
            .run();
    }
    Store store(db());
    sbx::store::Statement query(store.connection().get(),
                                "SELECT status, ended_note FROM sessions ORDER BY id");
    ASSERT_TRUE(query.step());
    EXPECT_EQ(query.column_text(0), "crashed");
    EXPECT_NE(query.column_text(1).find("after 0 committed runs and 0 cells"), std::string::npos);
    ASSERT_TRUE(query.step());
    EXPECT_EQ(query.column_text(0), "running") << "session " << live << " belongs to a live host";
}
