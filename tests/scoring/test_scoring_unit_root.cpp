// The augmented Dickey-Fuller test against Stata's published results on US real GDP and
// inflation (the reference values statsmodels checks its own test with), and on series whose
// answer is known by construction.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "scoring/unit_root.hpp"

namespace sbx::scoring {
namespace {

// Columns `column` of the fixture (comment lines start with #).
std::vector<double> macrodata(int column) {
    std::ifstream in(std::string(SBX_FIXTURES) + "/macrodata_realgdp_infl.txt");
    std::vector<double> values;
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') {
            continue;
        }
        std::istringstream fields(line);
        double gdp = 0;
        double inflation = 0;
        fields >> gdp >> inflation;
        values.push_back(column == 0 ? gdp : inflation);
    }
    return values;
}

TEST(AugmentedDickeyFuller, MatchesStataOnRealGdpWithFourLags) {
    const auto gdp = macrodata(0);
    ASSERT_EQ(gdp.size(), 203u);
    const auto test = augmented_dickey_fuller(gdp, 4);
    ASSERT_TRUE(test.has_value());
    EXPECT_NEAR(test->statistic, 0.97505319, 1.5e-5);
    EXPECT_NEAR(test->p_value, 0.99399563, 1.5e-5);
    EXPECT_EQ(test->observations, 198);
    // Stata prints MacKinnon's 1994 values; the 2010 ones differ in the second decimal.
    EXPECT_NEAR(test->critical_1, -3.476, 1.5e-2);
    EXPECT_NEAR(test->critical_5, -2.883, 1.5e-2);
    EXPECT_NEAR(test->critical_10, -2.573, 1.5e-2);
}

TEST(AugmentedDickeyFuller, MatchesStataOnInflationWithOneLag) {
    const auto test = augmented_dickey_fuller(macrodata(1), 1);
    ASSERT_TRUE(test.has_value());
    EXPECT_NEAR(test->statistic, -4.3346988, 1.5e-5);
    EXPECT_NEAR(test->p_value, 0.00038661, 1.5e-5);
}

TEST(AugmentedDickeyFuller, TellsANoisyLevelFromARandomWalk) {
    // A deterministic stand-in for noise (a linear congruential sequence in [-0.5, 0.5)).
    uint64_t state = 12345;
    const auto noise = [&] {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<double>(state >> 11) / 9007199254740992.0 - 0.5;
    };
    std::vector<double> level;
    std::vector<double> walk;
    double position = 0;
    for (int i = 0; i < 80; ++i) {
        level.push_back(1 + noise());
        position += noise();
        walk.push_back(position);
    }
    const auto stationary = augmented_dickey_fuller(level);
    const auto wandering = augmented_dickey_fuller(walk);
    ASSERT_TRUE(stationary && wandering);
    EXPECT_LT(stationary->p_value, 0.01);
    EXPECT_GT(wandering->p_value, 0.10);
}

// statsmodels 0.13.5's adfuller(x, regression="c") with its default AIC lag search, an
// independent implementation, on the same data.
TEST(AugmentedDickeyFuller, ChoosesTheLagsByAicAsStatsmodelsDoes) {
    const auto gdp = augmented_dickey_fuller(macrodata(0));
    ASSERT_TRUE(gdp.has_value());
    EXPECT_EQ(gdp->lags, 12);
    EXPECT_EQ(gdp->observations, 190);
    EXPECT_NEAR(gdp->statistic, 1.750462796764713, 1e-8);
    EXPECT_NEAR(gdp->p_value, 0.9982455372335032, 1e-8);
    const auto inflation = augmented_dickey_fuller(macrodata(1));
    ASSERT_TRUE(inflation.has_value());
    EXPECT_EQ(inflation->lags, 2);
    EXPECT_NEAR(inflation->statistic, -3.0545144962572364, 1e-8);
    EXPECT_NEAR(inflation->p_value, 0.03010762086348588, 1e-8);
}

TEST(AugmentedDickeyFuller, RefusesWhatCannotBeFitted) {
    EXPECT_FALSE(augmented_dickey_fuller({1, 2, 3}).has_value());              // too short
    EXPECT_FALSE(augmented_dickey_fuller(std::vector<double>(20, 0.5)));       // constant
    EXPECT_FALSE(augmented_dickey_fuller({1, 2, 1, 2, 1, 2}, 4).has_value());  // no residual dof
}

TEST(MacKinnonPValue, IsClampedOutsideTheTabulatedRangeAndMonotonic) {
    EXPECT_EQ(mackinnon_p_value(3.0), 1.0);
    EXPECT_EQ(mackinnon_p_value(-20.0), 0.0);
    double previous = 0;
    for (int step = 0; step < 414; ++step) {  // -18.0 to 2.65 by 0.05
        const double statistic = -18.0 + 0.05 * step;
        const double p = mackinnon_p_value(statistic);
        EXPECT_GE(p, previous - 1e-3) << statistic;  // the two polynomials meet near tau*
        previous = p;
    }
    // The 5 % critical value for a large sample has a p-value of about 0.05.
    EXPECT_NEAR(mackinnon_p_value(-2.86154), 0.05, 0.005);
}

}  // namespace
}  // namespace sbx::scoring
