// The built-in predictors, loaded through the real loader: linear's prediction interval
// against a hand computation with Student's t from the published table, the request's range,
// and `auto`, which must choose, per planted series, the predictor whose one-step forecasts
// of the series' last points were closest: measured here by calling the real ema, linear and
// holt plugins on every prefix, as `reliability` would have scored them.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "plugins/plugin.hpp"

namespace {

using nlohmann::json;

std::unique_ptr<sbx::plugins::Instance> predictor(const std::string &id,
                                                  const json &config = json::object()) {
    static std::map<std::string, std::shared_ptr<sbx::plugins::Plugin>> loaded;
    auto &plugin = loaded[id];
    if (!plugin) {
        plugin = sbx::plugins::load_plugin(std::string(SBX_PREDICTOR_DIR) + "/" + id + ".so");
    }
    return plugin->create(config);
}

json predict(sbx::plugins::Instance &instance, const std::vector<double> &series,
             const json &extra = json::object()) {
    json request{{"series", series}, {"subject", "test"}, {"metric", "x"}};
    request.update(extra);
    return json::parse(instance.predict(request.dump()));
}

TEST(LinearPredictor, GivesTheLeastSquaresForecastAndTheStudentTInterval) {
    auto linear = predictor("linear");
    // y = 1, 2, 4, 4, 6 at x = 0..4: slope 1.2, intercept 1, so 7 at x = 5. Residuals 0,
    // -0.2, 0.6, -0.6, 0.2: s² = 0.8 / 3. se = s·√(1 + 1/5 + 9/10); t(0.975, 3) = 3.182446.
    const auto answer = predict(*linear, {1, 2, 4, 4, 6});
    EXPECT_NEAR(answer["value"].get<double>(), 7.0, 1e-12);
    const double half = 3.182446 * std::sqrt(0.8 / 3) * std::sqrt(2.1);
    EXPECT_NEAR(answer["lower"].get<double>(), 7.0 - half, 1e-5);
    EXPECT_NEAR(answer["upper"].get<double>(), 7.0 + half, 1e-5);
    EXPECT_EQ(answer["method"], "linear");
    EXPECT_FALSE(answer["insufficient_data"].get<bool>());
    // Below four points: a forecast, but no invented interval.
    const auto short_answer = predict(*linear, {1, 2, 3});
    EXPECT_NEAR(short_answer["value"].get<double>(), 4.0, 1e-12);
    EXPECT_TRUE(short_answer["lower"].is_null());
    EXPECT_TRUE(short_answer["insufficient_data"].get<bool>());
}

TEST(Predictors, KeepTheForecastInsideTheRequestsRange) {
    for (const char *id : {"ema", "linear", "holt", "auto"}) {
        auto instance = predictor(id);
        const auto answer = predict(*instance, {0.2, 0.4, 0.6, 0.8, 1.0}, {{"range", {0, 1}}});
        EXPECT_LE(answer["value"].get<double>(), 1.0) << id;
        EXPECT_LE(answer["upper"].get<double>(), 1.0) << id;
        EXPECT_GE(answer["lower"].get<double>(), 0.0) << id;
    }
    auto linear = predictor("linear");
    EXPECT_DOUBLE_EQ(predict(*linear, {0.2, 0.4, 0.6, 0.8, 1.0}, {{"range", {0, 1}}})["value"],
                     1.0);
    EXPECT_NEAR(predict(*linear, {0.2, 0.4, 0.6, 0.8, 1.0})["value"].get<double>(), 1.2, 1e-12);
}

TEST(Predictors, RefuseASeriesThatIsNotNumbers) {
    for (const char *id : {"ema", "linear", "holt", "auto"}) {
        auto instance = predictor(id);
        EXPECT_THROW((void)instance->predict(R"({"series":[1,"2"]})"), std::exception) << id;
    }
}

// The mean |forecast − actual| of `id` over the last `window` points, each forecast from
// the points before it, through the real plugin.
double replayed_mae(const std::string &id, const std::vector<double> &series, size_t window) {
    auto instance = predictor(id);
    double sum = 0;
    for (size_t i = series.size() - window; i < series.size(); ++i) {
        const std::vector<double> prefix(series.begin(), series.begin() + static_cast<long>(i));
        sum += std::fabs(predict(*instance, prefix)["value"].get<double>() - series[i]);
    }
    return sum / static_cast<double>(window);
}

// A deterministic stand-in for noise in [-0.5, 0.5).
std::vector<double> noise(size_t count, uint64_t seed) {
    std::vector<double> values;
    for (size_t i = 0; i < count; ++i) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        values.push_back(static_cast<double>(seed >> 11) / 9007199254740992.0 - 0.5);
    }
    return values;
}

TEST(AutoPredictor, ChoosesThePredictorWithTheLowestRollingMaeOnPlantedSeries) {
    std::map<std::string, std::vector<double>> planted;
    for (int i = 0; i < 16; ++i) {
        planted["linear trend"].push_back(0.1 + 0.05 * i);
    }
    const auto jitter = noise(16, 7);
    for (int i = 0; i < 16; ++i) {
        planted["level with noise"].push_back(0.6 + 0.2 * jitter[static_cast<size_t>(i)]);
    }
    // A trend that bends: rising fast, then slower and slower (no season).
    for (int i = 0; i < 16; ++i) {
        planted["bending trend"].push_back(std::sqrt(static_cast<double>(i)) * 0.25);
    }
    auto automatic = predictor("auto");
    std::set<std::string> winners;
    for (const auto &[name, series] : planted) {
        std::string best;
        double best_mae = INFINITY;
        for (const char *id : {"ema", "linear", "holt"}) {
            const double mae = replayed_mae(id, series, 5);
            if (mae < best_mae - 1e-12) {
                best_mae = mae;
                best = id;
            }
        }
        const auto answer = predict(*automatic, series);
        EXPECT_EQ(answer["chosen"], best) << name << ": " << answer.dump();
        EXPECT_NEAR(answer["mae"][best].get<double>(), best_mae, 1e-12) << name;
        // It forecasts exactly as the predictor it chose.
        auto chosen = predictor(best);
        EXPECT_NEAR(answer["value"].get<double>(), predict(*chosen, series)["value"].get<double>(),
                    1e-12)
            << name;
        winners.insert(best);
    }
    // The exact line is linear's; the planted series are not all won by one method.
    EXPECT_EQ(predict(*automatic, planted["linear trend"])["chosen"], "linear");
    EXPECT_GE(winners.size(), 2u);
}

}  // namespace
