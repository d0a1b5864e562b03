// The augmented Dickey-Fuller test (with a constant) of whether a series is stationary, as
// synergy convergence uses it (docs/semantics.md "Convergence"): a small p-value rejects the
// unit root, i.e. the series keeps returning to its level instead of wandering off.
// p-values from MacKinnon's (1994) response surfaces, critical values from MacKinnon (2010),
// both as published; the test reproduces Stata's reference values.
#pragma once

#include <optional>
#include <vector>

namespace sbx::scoring {

struct UnitRootTest {
    double statistic = 0;  // the t-value of the lagged level
    double p_value = 1;    // MacKinnon's approximate p-value
    int lags = 0;          // lagged differences in the regression
    int observations = 0;  // rows of the regression
    // The statistic's critical values at 1 %, 5 % and 10 % for this many observations.
    double critical_1 = 0, critical_5 = 0, critical_10 = 0;
};

// Regresses Δy_t on a constant, y_{t−1} and Δy_{t−1} … Δy_{t−lags}. Without `lags`, picks
// the count with the lowest AIC up to ⌈12 (n/100)^¼⌉ (at most n/2 − 2), as statsmodels'
// adfuller does by default. None when the series is too short for the regression to have a
// residual degree of freedom, or it cannot be fitted (a constant series).
std::optional<UnitRootTest> augmented_dickey_fuller(const std::vector<double> &series,
                                                    std::optional<int> lags = std::nullopt);

// MacKinnon's approximate p-value of an ADF statistic (one series, with a constant).
double mackinnon_p_value(double statistic);

}  // namespace sbx::scoring
