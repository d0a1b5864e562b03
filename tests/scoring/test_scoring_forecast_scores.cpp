// Scoring stored forecasts against what then happened: rolling MAE, interval coverage,
// reliability, the order of predictors, what `auto` chose, the scores as JSON, and the
// adapted ROI tolerance.
#include <gtest/gtest.h>

#include "scoring/forecast_scores.hpp"

namespace sbx::scoring {
namespace {

store::ScoredForecast pair(const std::string &subject, const std::string &predictor, double value,
                           double actual, std::optional<double> half = {},
                           const std::string &chosen = "", bool shown = false) {
    store::ScoredForecast forecast;
    forecast.subject = subject;
    forecast.predictor = predictor;
    forecast.value = value;
    forecast.actual = actual;
    if (half) {
        forecast.lower = value - *half;
        forecast.upper = value + *half;
    }
    forecast.chosen = chosen;
    forecast.shown = shown;
    return forecast;
}

TEST(ForecastScores, RanksPredictorsByMaeAndCountsCoverage) {
    const std::vector<store::ScoredForecast> forecasts = {
        pair("roi:w:p:on", "ema", 0.5, 0.7, 0.1),     // error 0.2, outside
        pair("roi:w:p:on", "linear", 0.6, 0.7, 0.2),  // error 0.1, inside
        pair("roi:w:p:on", "ema", 0.6, 0.8, 0.3),     // error 0.2, inside
        pair("roi:w:p:on", "linear", 0.75, 0.8),      // error 0.05, no interval
        pair("roi:w:p:on", "auto", 0.7, 0.7, {}, "linear"),
        pair("roi:w:p:on", "auto", 0.8, 0.8, {}, "linear"),
        pair("wall_s:w:p:on", "ema", 1, 3)};
    const auto scores = score_forecasts(forecasts, 0);
    ASSERT_EQ(scores.size(), 2u);
    EXPECT_EQ(scores[0].subject, "roi:w:p:on");
    const auto &ranked = scores[0].predictors;
    ASSERT_EQ(ranked.size(), 3u);
    EXPECT_EQ(ranked[0].predictor, "auto");
    EXPECT_DOUBLE_EQ(ranked[0].mae, 0);
    EXPECT_EQ(ranked[0].chosen.at("linear"), 2u);
    EXPECT_FALSE(ranked[0].coverage().has_value());
    EXPECT_EQ(ranked[1].predictor, "linear");
    EXPECT_NEAR(ranked[1].mae, 0.075, 1e-12);
    EXPECT_EQ(ranked[1].intervals, 1u);
    EXPECT_EQ(ranked[1].covered, 1u);
    EXPECT_EQ(ranked[2].predictor, "ema");
    EXPECT_NEAR(ranked[2].mae, 0.2, 1e-12);
    EXPECT_DOUBLE_EQ(*ranked[2].coverage(), 0.5);
    // 1 / (1 + EMA₀.₃ of the errors 0.2, 0.2).
    EXPECT_NEAR(ranked[2].reliability, 1 / 1.2, 1e-12);
}

TEST(ForecastScores, AWindowScoresOnlyTheLastPairs) {
    const std::vector<store::ScoredForecast> forecasts = {pair("roi:w:p:on", "ema", 0, 1, 0.5),
                                                          pair("roi:w:p:on", "ema", 0.5, 0.6, 0.5)};
    const auto scores = score_forecasts(forecasts, 1);
    ASSERT_EQ(scores.size(), 1u);
    EXPECT_EQ(scores[0].predictors[0].pairs, 1u);
    EXPECT_NEAR(scores[0].predictors[0].mae, 0.1, 1e-12);
    EXPECT_EQ(scores[0].predictors[0].covered, 1u);
}

TEST(ForecastScores, AsJsonCoverageIsNullWithoutIntervals) {
    const auto scores = score_forecasts({pair("roi:w:p:on", "ema", 0.5, 0.7, 0.3),
                                         pair("roi:w:p:on", "auto", 0.7, 0.7, {}, "linear")},
                                        0);
    const auto json = to_json(scores);
    ASSERT_EQ(json.size(), 1u);
    EXPECT_EQ(json[0]["subject"], "roi:w:p:on");
    const auto &predictors = json[0]["predictors"];
    ASSERT_EQ(predictors.size(), 2u);
    EXPECT_EQ(predictors[0]["predictor"], "auto");
    EXPECT_TRUE(predictors[0]["coverage"].is_null());
    EXPECT_EQ(predictors[0]["chosen"]["linear"], 1);
    EXPECT_EQ(predictors[1]["coverage"], 1.0);
    EXPECT_EQ(predictors[1]["pairs"], 1);
}

TEST(AdaptedTolerance, WidensWithTheShownPredictorsRoiErrorOnly) {
    EXPECT_DOUBLE_EQ(adapted_tolerance(0.01, {}), 0.01);
    const std::vector<store::ScoredForecast> forecasts = {
        pair("roi:w:p:on", "auto", 0.5, 1.0, {}, "", true),      // error 0.5, counted
        pair("roi:w:p:on", "ema", 0.0, 1.0, {}, "", false),      // a compared predictor
        pair("wall_s:w:p:on", "auto", 0.0, 9.0, {}, "", true)};  // not ROI
    EXPECT_NEAR(adapted_tolerance(0.01, forecasts), 0.01 * 1.5, 1e-12);
}

}  // namespace
}  // namespace sbx::scoring
