// Storing forecasts and pairing them with what followed, on a real SQLite file: the normal
// step, forecasts a failed call left behind, a subject asked twice at one length, and the
// scored rows read back.
#include <gtest/gtest.h>

#include <filesystem>

#include "command.hpp"
#include "store/forecast_records.hpp"
#include "store/store.hpp"

namespace {

using sbx::store::PredictionRecord;
using sbx::store::Store;

class ForecastRecordsTest : public ::testing::Test {
  protected:
    void SetUp() override { dir_ = sbx::test::make_temp_dir("sbx-forecasts-"); }
    void TearDown() override { std::filesystem::remove_all(dir_); }
    std::filesystem::path db() const { return std::filesystem::path(dir_) / "metrics.db"; }

    static PredictionRecord forecast(int64_t session, const char *method, double value,
                                     bool shown = true) {
        return {session, "", method, value, value - 0.1, value + 0.1, 0, "", shown};
    }

    std::string dir_;
};

TEST_F(ForecastRecordsTest, EachForecastMeetsThePointThatFollowedIt) {
    Store store(db());
    const auto session = store.begin_session("run demo", "test.yaml", 1);
    sbx::store::record_forecasts(
        store, "roi:w:p:on", {0.5},
        {forecast(session, "auto", 0.5), forecast(session, "ema", 0.4, false)});
    sbx::store::record_forecasts(
        store, "roi:w:p:on", {0.5, 0.75},
        {forecast(session, "auto", 0.7), forecast(session, "ema", 0.6, false)});
    // The forecasts from 1 point met point 2 (0.75); those from 2 points wait.
    const auto scored = sbx::store::scored_forecasts(store, "roi:");
    ASSERT_EQ(scored.size(), 2u);
    EXPECT_EQ(scored[0].predictor, "auto");
    EXPECT_DOUBLE_EQ(scored[0].value, 0.5);
    EXPECT_DOUBLE_EQ(scored[0].actual, 0.75);
    EXPECT_TRUE(scored[0].shown);
    EXPECT_EQ(scored[1].predictor, "ema");
    EXPECT_DOUBLE_EQ(scored[1].actual, 0.75);
    EXPECT_FALSE(scored[1].shown);
    EXPECT_TRUE(sbx::store::scored_forecasts(store, "wall_s:").empty());
}

TEST_F(ForecastRecordsTest, AForecastLeftBehindMeetsItsOwnPointLater) {
    Store store(db());
    const auto session = store.begin_session("run demo", "test.yaml", 1);
    sbx::store::record_forecasts(store, "m:w:p:on", {1}, {forecast(session, "ema", 1.5)});
    // The cell of point 2 was recorded but its forecast failed: nothing from 2 points.
    sbx::store::record_forecasts(store, "m:w:p:on", {1, 2, 3}, {forecast(session, "ema", 3.5)});
    const auto scored = sbx::store::scored_forecasts(store, "m:");
    ASSERT_EQ(scored.size(), 1u);
    EXPECT_EQ(scored[0].points, 1);
    EXPECT_DOUBLE_EQ(scored[0].actual, 2) << "series[1], the point after its 1 point";
}

TEST_F(ForecastRecordsTest, AskingTwiceAtOneLengthKeepsOneForecast) {
    Store store(db());
    const auto session = store.begin_session("run demo", "test.yaml", 1);
    sbx::store::record_forecasts(store, "roi:m:loop1", {0.5, 0.5},
                                 {forecast(session, "auto", 0.5)});
    sbx::store::record_forecasts(store, "roi:m:loop1", {0.5, 0.5},
                                 {forecast(session, "auto", 0.5)});
    sbx::store::Statement count(store.connection().get(),
                                "SELECT count(*) FROM predictions WHERE subject = 'roi:m:loop1'");
    ASSERT_TRUE(count.step());
    EXPECT_EQ(count.column_int(0), 1);
}

}  // namespace
