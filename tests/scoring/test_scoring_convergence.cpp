// Synergy convergence and the entropy plateau (docs/semantics.md "Convergence"): the derived
// threshold by hand, the outcome entropy in bits, and each reason a series is not settled.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <map>
#include <string>

#include "scoring/convergence.hpp"
#include "util/errors.hpp"

namespace sbx::scoring {
namespace {

std::vector<double> noise(size_t count, uint64_t seed, double scale) {
    std::vector<double> values;
    for (size_t i = 0; i < count; ++i) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        values.push_back(scale * (static_cast<double>(seed >> 11) / 9007199254740992.0 - 0.5));
    }
    return values;
}

TEST(AdaptiveThreshold, IsTheExponentiallyWeightedSpreadOfTheLastWindow) {
    EXPECT_EQ(adaptive_threshold({}, 5), 0);
    EXPECT_EQ(adaptive_threshold({3}, 5), 0);
    EXPECT_EQ(adaptive_threshold({2, 2, 2}, 5), 0);
    // Window 3: decay 0.5; values 0 (weight 0.5) and 1 (weight 1): mean 2/3, variance
    // (1·(1/3)² + 0.5·(2/3)²) / 1.5 = 2/9.
    EXPECT_NEAR(adaptive_threshold({0, 1}, 3), std::sqrt(2.0 / 9), 1e-12);
    // Only the last window counts.
    EXPECT_EQ(adaptive_threshold({100, -100, 1, 1, 1}, 3), 0);
}

TEST(OutcomeEntropy, CountsPassesAndEachFailureReasonInBits) {
    EXPECT_EQ(outcome_entropy(4, {}), 0);
    EXPECT_EQ(outcome_entropy(0, {{"put: status RE", 3}}), 0);
    EXPECT_NEAR(outcome_entropy(2, {{"put: status RE", 2}}), 1.0, 1e-12);
    EXPECT_NEAR(outcome_entropy(1, {{"a", 1}, {"b", 1}, {"c", 1}}), 2.0, 1e-12);
    EXPECT_EQ(outcome_entropy(0, {}), 0);
}

TEST(SynergyCheck, NeedsTwoWindowsOfPoints) {
    ConvergenceSettings settings;
    const auto check = check_synergy({0.1, 0.1, 0.1}, settings);
    EXPECT_FALSE(check.stable);
    EXPECT_EQ(check.reason, "needs 10 points (SYNERGY_MA_WINDOW 5 twice), has 3");
}

TEST(SynergyCheck, AConstantSeriesHasSettled) {
    const auto check = check_synergy(std::vector<double>(10, 0.25), {});
    EXPECT_TRUE(check.stable) << check.reason;
    EXPECT_TRUE(check.constant);
    EXPECT_EQ(check.threshold, 0);
    EXPECT_FALSE(check.threshold_given);
}

TEST(SynergyCheck, AMovingAverageThatMovedIsNotSettled) {
    std::vector<double> series(5, 0.0);
    series.insert(series.end(), 5, 0.5);
    const auto check = check_synergy(series, {});
    EXPECT_FALSE(check.stable);
    EXPECT_EQ(check.reason.rfind("its moving average moved by 0.5, above ", 0), 0u) << check.reason;
    ConvergenceSettings lenient;
    lenient.synergy_threshold = 1.0;
    const auto given = check_synergy(series, lenient);
    EXPECT_TRUE(given.threshold_given);
    EXPECT_NE(given.reason.rfind("its moving average", 0), 0u) << "within a given threshold of 1";
}

TEST(SynergyCheck, NoiseAroundALevelIsStationaryAndAWalkIsNot) {
    ConvergenceSettings settings;
    settings.synergy_window = 20;
    settings.synergy_threshold = 10.0;  // only the tests decide here
    const auto level = noise(40, 3, 1.0);
    const auto settled = check_synergy(level, settings);
    EXPECT_TRUE(settled.stable) << settled.reason;
    ASSERT_TRUE(settled.stationarity.has_value());
    EXPECT_LT(settled.stationarity->p_value, 0.05);

    std::vector<double> walk;
    double position = 0;
    for (const double step : noise(40, 5, 1.0)) {
        position += step + 0.05;
        walk.push_back(position);
    }
    const auto wandering = check_synergy(walk, settings);
    EXPECT_FALSE(wandering.stable);
    EXPECT_EQ(wandering.reason.rfind("not stationary (ADF p ", 0), 0u) << wandering.reason;
}

TEST(SynergyCheck, ASpreadThatChangedIsNotSettled) {
    ConvergenceSettings settings;
    settings.synergy_window = 20;
    settings.synergy_threshold = 10.0;
    settings.stationarity_confidence = 0.5;  // noise passes; the spread decides
    auto series = noise(20, 11, 0.02);
    const auto loud = noise(20, 13, 4.0);
    series.insert(series.end(), loud.begin(), loud.end());
    const auto check = check_synergy(series, settings);
    EXPECT_FALSE(check.stable);
    EXPECT_EQ(check.reason.rfind("its spread changed (Levene p ", 0), 0u) << check.reason;
}

TEST(SynergyConverged, NeedsTheCheckToPassForSynergyCyclesPoints) {
    ConvergenceSettings settings;  // window 5, 3 cycles
    std::vector<double> series(11, 0.2);
    EXPECT_FALSE(synergy_converged(series, settings)) << "stable only at 10 and 11 points";
    series.push_back(0.2);
    EXPECT_TRUE(synergy_converged(series, settings));
    series.push_back(0.9);
    EXPECT_FALSE(synergy_converged(series, settings));
}

TEST(EntropyPlateau, EndsWhenTheChangesStop) {
    ConvergenceSettings settings;  // 3 consecutive, derived thresholds
    EXPECT_FALSE(check_entropy_plateau({1.0}, settings).has_value());
    EXPECT_TRUE(entropy_plateaued({1.0, 0.5, 0.5, 0.5, 0.5}, settings));
    EXPECT_FALSE(entropy_plateaued({1.0, 0.5, 0.5}, settings)) << "two changes are not three";
    // Steady learning: every change is 0.3, the spread of the changes 0.
    const std::vector<double> rising = {0, 0.3, 0.6, 0.9, 1.2};
    EXPECT_FALSE(entropy_plateaued(rising, settings));
    const auto check = check_entropy_plateau(rising, settings);
    ASSERT_TRUE(check.has_value());
    EXPECT_NEAR(check->change, 0.3, 1e-12);
    EXPECT_LT(check->threshold, 1e-12);  // equal changes, up to rounding
    settings.entropy_plateau_threshold = 0.5;
    EXPECT_TRUE(entropy_plateaued(rising, settings));
}

TEST(SynergyCheck, TheThresholdIsTheLoopsForecastErrorWhenItHasTwo) {
    ConvergenceSettings settings;  // window 5
    const std::vector<double> series(10, 0.5);
    const double nan = std::nan("");
    // Errors 0.02 then 0.04 (the newest): weights 1 and 1 − 2/6 = 2/3.
    std::vector<double> errors(10, nan);
    errors[8] = 0.02;
    errors[9] = 0.04;
    const auto check = check_synergy(series, settings, errors);
    EXPECT_EQ(check.threshold_basis, "forecast error");
    EXPECT_NEAR(check.threshold, (0.04 + 2.0 / 3 * 0.02) / (1 + 2.0 / 3), 1e-12);
    // The weight of the newest, given: 1 leaves the newest alone.
    settings.synergy_threshold_weight = 1;
    EXPECT_NEAR(check_synergy(series, settings, errors).threshold, 0.04, 1e-12);
    // One error is no basis: the series' own spread.
    errors[8] = nan;
    EXPECT_EQ(check_synergy(series, settings, errors).threshold_basis, "spread");
    settings.synergy_threshold = 0.5;
    const auto given = check_synergy(series, settings, errors);
    EXPECT_TRUE(given.threshold_given);
    EXPECT_EQ(given.threshold_basis, "");
}

TEST(SynergyCheck, AShiftWithinTheThresholdFailsTheConfidenceGate) {
    ConvergenceSettings settings;
    settings.synergy_threshold = 1;  // a move of 0.1 is within it
    const std::vector<double> series = {0, 0.01, 0, 0.01, 0, 0.1, 0.11, 0.1, 0.11, 0.1};
    EXPECT_EQ(check_synergy(series, settings).reason.find("mean shifted"), std::string::npos);
    settings.synergy_confidence = 0.95;
    const auto check = check_synergy(series, settings);
    EXPECT_FALSE(check.stable);
    EXPECT_NE(check.reason.find("its mean shifted (Welch's t test p "), std::string::npos)
        << check.reason;
    ASSERT_TRUE(check.mean_shift_p.has_value());
    EXPECT_LT(*check.mean_shift_p, 0.05);
}

TEST(ConvergenceSettings, ReadTheEnvironmentAndNameABadVariable) {
    const std::map<std::string, std::string> env = {{"SYNERGY_MA_WINDOW", "4"},
                                                    {"SYNERGY_STATIONARITY_CONFIDENCE", "0.99"},
                                                    {"SYNERGY_VARIANCE_CONFIDENCE", "0.9"},
                                                    {"SYNERGY_CYCLES", "5"},
                                                    {"ENTROPY_PLATEAU_THRESHOLD", "0.02"},
                                                    {"ENTROPY_PLATEAU_CONSECUTIVE", "2"},
                                                    {"SYNERGY_THRESHOLD", "0.03"},
                                                    {"SYNERGY_THRESHOLD_WINDOW", "7"},
                                                    {"SYNERGY_THRESHOLD_WEIGHT", "0.4"},
                                                    {"SYNERGY_CONFIDENCE", "0.9"}};
    const auto lookup = [&](const char *name) -> const char * {
        const auto found = env.find(name);
        return found == env.end() ? nullptr : found->second.c_str();
    };
    const auto settings = convergence_settings_from_environment(lookup);
    EXPECT_EQ(settings.synergy_window, 4u);
    EXPECT_EQ(settings.stationarity_confidence, 0.99);
    EXPECT_EQ(settings.variance_confidence, 0.9);
    EXPECT_EQ(settings.synergy_cycles, 5);
    EXPECT_EQ(settings.entropy_plateau_threshold, 0.02);
    EXPECT_EQ(settings.entropy_plateau_consecutive, 2);
    EXPECT_EQ(settings.synergy_threshold, 0.03);
    EXPECT_EQ(settings.synergy_threshold_window, 7u);
    EXPECT_EQ(settings.synergy_threshold_weight, 0.4);
    EXPECT_EQ(settings.synergy_confidence, 0.9);
    const auto bad = [](const char *wanted, const char *value) {
        return [=](const char *name) -> const char * {
            return std::string(name) == wanted ? value : nullptr;
        };
    };
    EXPECT_THROW(convergence_settings_from_environment(bad("SYNERGY_MA_WINDOW", "1")), InputError);
    EXPECT_THROW(convergence_settings_from_environment(bad("SYNERGY_THRESHOLD_WEIGHT", "0")),
                 InputError);
    EXPECT_THROW(convergence_settings_from_environment(bad("SYNERGY_CONFIDENCE", "1")), InputError);
    try {
        (void)convergence_settings_from_environment(bad("SYNERGY_VARIANCE_CONFIDENCE", "95"));
        FAIL() << "95 is not a confidence";
    } catch (const InputError &e) {
        EXPECT_NE(std::string(e.what()).find("SYNERGY_VARIANCE_CONFIDENCE='95'"), std::string::npos)
            << e.what();
    }
}

}  // namespace
}  // namespace sbx::scoring
