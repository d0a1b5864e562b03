// Forecasts scored against what happened: a workflow whose ROI follows a planted series is
// run again and again; every predictor's forecast of every series is stored, paired with the
// next point, and `show-reliability` reports each predictor's error and interval coverage.
#include <array>
#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_fixture.hpp"

namespace {

using nlohmann::json;

// Passes of 4 runs per invocation: the ROI series the test plants.
constexpr std::array<int, 6> kPlantedPasses = {1, 2, 2, 3, 4, 3};

class Forecasts : public sbx::test::CliTest {
  protected:
    void SetUp() override {
        CliTest::SetUp();
        // Run r of an invocation passes when r (a counter kept across runs) mod 4 is below
        // the number in `passes`, which the test writes before each invocation.
        write_settings(
            R"(
predictor: auto
predictors: [ema, linear, holt]
presets: [{SCENARIO_NAME: normal}]
workflows:
  - name: planted
    filesystem: host
    steps:
      - name: count
        run: [/bin/sh, -c, 'cd ")" +
            dir_ +
            R"(" && n=$(cat counter 2>/dev/null || echo 0) && echo $((n + 1)) > counter && test $((n % 4)) -lt $(cat passes)']
)");
    }

    void run_invocation(int passes) {
        std::ofstream(dir_ + "/passes") << passes << '\n';
        const auto result =
            runner({"run", "-w", "planted", "--runs", "4", "--workers", "1", "--seed", "1"});
        ASSERT_EQ(result.exit_code, 0) << result.err;
    }
};

TEST_F(Forecasts, EveryPredictorForecastsEverySeriesAndEachForecastMeetsWhatFollowed) {
    for (const int passes : kPlantedPasses) {
        run_invocation(passes);
    }
    // The shown predictor and three compared ones forecast the ROI after each of 6 cells.
    const auto roi_rows = query(
        "SELECT method, points, actual, value, shown FROM predictions WHERE subject = "
        "'roi:planted:normal:on' ORDER BY method, points");
    ASSERT_EQ(roi_rows.size(), 24u);
    std::map<std::string, int> shown;
    for (const auto &row : roi_rows) {
        const int points = std::stoi(row[1]);
        if (points == 6) {
            EXPECT_EQ(row[2], "") << row[0] << ": the last forecast has no actual yet";
        } else {
            // The forecast made from `points` cells is paired with cell points + 1.
            EXPECT_DOUBLE_EQ(std::stod(row[2]), kPlantedPasses[static_cast<size_t>(points)] / 4.0)
                << row[0] << " at " << points;
        }
        const double value = std::stod(row[3]);
        EXPECT_TRUE(value >= 0 && value <= 1) << "an ROI forecast stays in [0, 1]: " << value;
        shown[row[0]] += std::stoi(row[4]);
    }
    EXPECT_EQ(shown,
              (std::map<std::string, int>{{"auto", 6}, {"ema", 0}, {"holt", 0}, {"linear", 0}}));
    // Each cell metric is a series of its own, forecast the same way.
    EXPECT_EQ(query("SELECT count(*) FROM predictions WHERE subject = "
                    "'wall_s:planted:normal:on' AND actual IS NOT NULL")[0][0],
              "20");
    EXPECT_EQ(query("SELECT count(DISTINCT chosen) > 0 FROM predictions WHERE method = 'auto' "
                    "AND subject = 'roi:planted:normal:on'")[0][0],
              "1");

    const auto result = runner({"show-reliability", "--json"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const json report = json::parse(result.out);
    ASSERT_EQ(report["subjects"].size(), 1u) << "--metric defaults to roi";
    const auto &subject = report["subjects"][0];
    EXPECT_EQ(subject["subject"], "roi:planted:normal:on");
    ASSERT_EQ(subject["predictors"].size(), 4u);
    double previous_mae = 0;
    for (const auto &score : subject["predictors"]) {
        const std::string predictor = score["predictor"];
        EXPECT_EQ(score["pairs"], 5) << predictor;
        // The MAE is the mean distance of the stored forecasts from the stored actuals.
        const auto expected = query(
            "SELECT avg(abs(value - actual)) FROM predictions WHERE subject = "
            "'roi:planted:normal:on' AND method = '" +
            predictor + "' AND actual IS NOT NULL");
        EXPECT_NEAR(score["mae"].get<double>(), std::stod(expected[0][0]), 1e-9) << predictor;
        EXPECT_GE(score["mae"].get<double>(), previous_mae) << "lowest MAE first";
        previous_mae = score["mae"].get<double>();
        // Intervals exist from four points on: the forecasts made from 4 and 5 cells.
        EXPECT_EQ(score["intervals"], 2) << predictor;
        EXPECT_LE(score["covered"].get<int>(), 2) << predictor;
        EXPECT_GT(score["reliability"].get<double>(), 0) << predictor;
        EXPECT_LE(score["reliability"].get<double>(), 1) << predictor;
        if (predictor == "auto") {
            int chosen = 0;
            for (const auto &[method, count] : score["chosen"].items()) {
                EXPECT_TRUE(method == "ema" || method == "linear" || method == "holt") << method;
                chosen += count.get<int>();
            }
            EXPECT_EQ(chosen, 5);
        }
    }

    const auto windowed = json::parse(runner({"show-reliability", "--window", "2", "--json"}).out);
    EXPECT_EQ(windowed["subjects"][0]["predictors"][0]["pairs"], 2);
    const auto everything =
        json::parse(runner({"show-reliability", "--metric", "all", "--json"}).out);
    EXPECT_GT(everything["subjects"].size(), 1u);

    const auto text = runner({"show-reliability"});
    ASSERT_EQ(text.exit_code, 0) << text.err;
    EXPECT_NE(text.out.find("roi:planted:normal:on"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("best"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("chose "), std::string::npos) << text.out;
}

TEST_F(Forecasts, ReliabilityWithoutPairsSaysSoAndRefusesBadOptions) {
    const auto empty = runner({"show-reliability"});
    EXPECT_EQ(empty.exit_code, 0) << empty.err;
    EXPECT_NE(empty.out.find("no forecast of 'roi' has been paired"), std::string::npos)
        << empty.out;
    const auto negative = runner({"show-reliability", "--window", "-1"});
    EXPECT_EQ(negative.exit_code, 2);
    EXPECT_NE(negative.err.find("--window -1 must be 0"), std::string::npos) << negative.err;
    const auto no_metric = runner({"show-reliability", "--metric", ""});
    EXPECT_EQ(no_metric.exit_code, 2);
    EXPECT_NE(no_metric.err.find("--metric needs a metric name"), std::string::npos)
        << no_metric.err;
}

}  // namespace
