// How far an interrupted session got, read back for --recover: recorded cells with their
// metrics and forecast, committed runs with their cell share and metrics; runs an older
// host wrote without a cell share are the only ones discard_unfinished_runs removes.
#include <gtest/gtest.h>

#include <filesystem>

#include "command.hpp"
#include "store/matrix_records.hpp"
#include "store/session_progress.hpp"
#include "store/store.hpp"

namespace {

using sbx::store::Store;

class SessionProgressTest : public ::testing::Test {
  protected:
    void SetUp() override { dir_ = sbx::test::make_temp_dir("sbx-progress-"); }
    void TearDown() override { std::filesystem::remove_all(dir_); }
    std::filesystem::path db() const { return std::filesystem::path(dir_) / "metrics.db"; }

    static sbx::store::RunRecord run(int64_t session, int64_t preset, const std::string &flag,
                                     int repetition, nlohmann::json share) {
        sbx::store::RunRecord record;
        record.session_id = session;
        record.workflow = "demo";
        record.preset_id = preset;
        record.flag = flag;
        record.repetition = repetition;
        record.passed = repetition % 2 == 0;
        record.started_at = sbx::store::utc_now();
        record.metrics = {{"wall_s", 0.25 * (repetition + 1)}};
        record.cell_share = std::move(share);
        return record;
    }
    std::string dir_;
};

TEST_F(SessionProgressTest, ReadsCellsRunsAndForecastsAndDropsOnlyRunsWithoutAShare) {
    Store store(db());
    const auto session = store.begin_session("run demo", "test.yaml", 3);
    const auto other = store.begin_session("run demo", "test.yaml", 4);
    const auto preset = store.preset_id("normal", {{"SCENARIO_NAME", "normal"}});
    const nlohmann::json share{{"executions", 2}, {"passed_executions", 1}};
    store.record_run(run(session, preset, "off", 0, share));
    const auto off_cell = store.record_cell(
        {session, "demo", preset, "off", 1, 1, 1.0, {{"wall_s", 0.25}, {"custom", 7}}, ""});
    store.record_prediction({session, "roi:demo:normal:off", "ema", 0.9, 0.8, 1.0, 1, "", true});
    // A compared predictor's forecast, recorded after it, is not the cell's forecast.
    store.record_prediction(
        {session, "roi:demo:normal:off", "linear", 0.5, 0.1, 0.9, 1, "", false});
    const auto kept = store.record_run(run(session, preset, "on", 1, share));
    store.record_run(run(session, preset, "on", 2, nullptr));  // an older host's run
    store.record_run(run(other, preset, "on", 0, share));      // another session's

    const auto progress = sbx::store::session_progress(store, session);
    ASSERT_EQ(progress.cells.size(), 1u);
    const auto &cell = progress.cells[0];
    EXPECT_EQ(cell.cell_id, off_cell);
    EXPECT_EQ(cell.flag, "off");
    EXPECT_EQ(cell.preset_name, "normal");
    EXPECT_EQ(cell.metrics.at("custom"), 7);
    EXPECT_EQ(cell.forecast["method"], "ema");
    EXPECT_DOUBLE_EQ(cell.forecast["lower"].get<double>(), 0.8);

    ASSERT_EQ(progress.runs.size(), 2u);  // the share-less run and the other session's: no
    const auto &on = progress.runs[1];
    EXPECT_EQ(on.run_id, kept);
    EXPECT_EQ(on.flag, "on");
    EXPECT_EQ(on.repetition, 1);
    EXPECT_FALSE(on.passed);
    EXPECT_EQ(nlohmann::json::parse(on.cell_share), share);
    EXPECT_DOUBLE_EQ(on.metrics.at("wall_s"), 0.5);

    EXPECT_EQ(sbx::store::discard_unfinished_runs(store, session), 1);
    sbx::store::Statement left(store.connection().get(),
                               "SELECT count(*) FROM runs WHERE session_id = ?");
    left.bind(1, session);
    ASSERT_TRUE(left.step());
    EXPECT_EQ(left.column_int(0), 2);
}

}  // namespace
