// The cleanup_counters table on a real SQLite file: counts are summed, durations keep the
// latest value, what is not a counter is skipped and said, a run brings its counters in its
// own transaction, a version-3 database gains the table when opened, and the counters are read
// back from a path (no database: none) and written as JSON and text.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "command.hpp"
#include "schema_history.hpp"
#include "store/cleanup_counters.hpp"
#include "store/migrations.hpp"

namespace {

using nlohmann::json;
using sbx::store::CleanupCounters;
using sbx::store::Store;

class CleanupCountersTest : public ::testing::Test {
  protected:
    void SetUp() override { dir_ = sbx::test::make_temp_dir("sbx-counters-"); }
    void TearDown() override { std::filesystem::remove_all(dir_); }
    std::filesystem::path db() const { return std::filesystem::path(dir_) / "metrics.db"; }
    std::string dir_;
};

TEST_F(CleanupCountersTest, CountsAreSummedAndDurationsKeepTheLatest) {
    Store store(db());
    sbx::store::add_cleanup_counters(
        store, {{"cleanup_idle", 2}, {"cleanup_duration_seconds_cleanup", 0.5}});
    sbx::store::add_cleanup_counters(
        store, {{"cleanup_idle", 3}, {"cleanup_duration_seconds_cleanup", 0.125}});
    const auto rows = sbx::store::read_cleanup_counters(store);
    ASSERT_EQ(rows.size(), 2U);
    EXPECT_DOUBLE_EQ(rows.at("cleanup_idle").value, 5);
    EXPECT_DOUBLE_EQ(rows.at("cleanup_duration_seconds_cleanup").value, 0.125);
    EXPECT_EQ(rows.at("cleanup_idle").updated_at.size(), 24U) << rows.at("cleanup_idle").updated_at;
}

TEST_F(CleanupCountersTest, ReadFromAPathWithoutCreatingADatabase) {
    EXPECT_TRUE(sbx::store::read_cleanup_counters(db()).empty());
    EXPECT_FALSE(std::filesystem::exists(db()));
    {
        Store store(db());
        sbx::store::add_cleanup_counters(store, {{"cleanup_idle", 2}});
    }
    const auto rows = sbx::store::read_cleanup_counters(db());
    ASSERT_EQ(rows.size(), 1U);
    const auto counters = sbx::store::counters_json(rows);
    EXPECT_EQ(counters["cleanup_idle"]["value"], 2.0);
    EXPECT_EQ(counters["cleanup_idle"]["updated_at"], rows.at("cleanup_idle").updated_at);
    EXPECT_EQ(sbx::store::counters_json({}), json::object());
}

TEST(CounterText, WholeNumbersWithoutAFraction) {
    EXPECT_EQ(sbx::store::counter_text(3), "3");
    EXPECT_EQ(sbx::store::counter_text(0), "0");
    EXPECT_EQ(sbx::store::counter_text(0.125), "0.125");
    EXPECT_EQ(sbx::store::counter_text(1e16), "1e+16");
}

TEST_F(CleanupCountersTest, WhatIsNotACounterIsSkippedAndSaid) {
    CleanupCounters merged;
    std::vector<std::string> ignored;
    sbx::store::add_reported_counters(json::parse(R"({"cleanup_idle": 1, "text": "3",
        "negative": -2, "flag": true, "list": [1], "bad-name": 1, "": 4, "cleanup_failures": 2.5,
        "nested": {"a": 1}})"),
                                      merged, ignored);
    sbx::store::add_reported_counters(json::parse(R"({"cleanup_idle": 1})"), merged, ignored);
    sbx::store::add_reported_counters(json::parse("[1, 2]"), merged, ignored);
    sbx::store::add_reported_counters(json(), merged, ignored);  // absent: nothing to say
    EXPECT_EQ(merged, (CleanupCounters{{"cleanup_idle", 2}, {"cleanup_failures", 2.5}}));
    EXPECT_EQ(ignored.size(), 8U);
    ASSERT_GE(ignored.size(), 2U);
    EXPECT_EQ(ignored[1], "'bad-name': a counter name is 1 to 128 of [A-Za-z0-9_]") << ignored[1];
    EXPECT_EQ(ignored.back(), "not an object of counters: [1,2]");
}

TEST_F(CleanupCountersTest, ARunBringsItsCountersWithIt) {
    Store store(db());
    const int64_t session = store.begin_session("run t", "test", 1);
    sbx::store::RunRecord run;
    run.session_id = session;
    run.workflow = "t";
    run.preset_id = store.preset_id("normal", json{{"SCENARIO_NAME", "normal"}});
    run.started_at = sbx::store::utc_now();
    run.cleanup_counters = {{"stale_vms_removed", 4}};
    store.record_run(run);
    store.record_run(run);
    EXPECT_DOUBLE_EQ(sbx::store::read_cleanup_counters(store).at("stale_vms_removed").value, 8);
}

TEST_F(CleanupCountersTest, AVersion3DatabaseGainsTheTable) {
    {
        // A version-3 file: today's schema without what migrations 4 to 6 added.
        Store made(db());
        made.connection().exec("DROP TABLE cleanup_counters");
        sbx::test::drop_outcome_columns(made.connection());
        sbx::test::drop_session_owner_columns(made.connection());
        sbx::test::drop_cell_share_column(made.connection());
        sbx::test::drop_forecast_pair_columns(made.connection());
        sbx::test::restore_runs_by_session_index(made.connection());
        sbx::test::drop_run_error_columns(made.connection());
        sbx::test::drop_operations_columns(made.connection());
        sbx::test::drop_plugin_failures_table(made.connection());
        made.connection().exec("PRAGMA user_version = 3");
    }
    Store store(db());
    EXPECT_EQ(store.schema_version(), sbx::store::latest_schema_version());
    sbx::store::add_cleanup_counters(store, {{"force_kills", 1}});
    EXPECT_DOUBLE_EQ(sbx::store::read_cleanup_counters(store).at("force_kills").value, 1);
}

}  // namespace
