#include "scoring/unit_root.hpp"

#include <algorithm>
#include <cmath>

#include <boost/math/distributions/normal.hpp>

#include "scoring/least_squares.hpp"

namespace sbx::scoring {
namespace {

// MacKinnon (1994), Table 3, one series with a constant: beyond these the p-value is 0 or 1;
// below tau_star the small-p polynomial applies, above it the large-p one.
constexpr double kTauMin = -18.83;
constexpr double kTauMax = 2.74;
constexpr double kTauStar = -1.61;
constexpr double kSmallP[] = {2.1659, 1.4412, 3.8269e-2};
constexpr double kLargeP[] = {1.7339, 9.3202e-1, -1.2745e-1, -1.0368e-2};

// MacKinnon (2010), Table 2, one series with a constant: c0 + c1/T + c2/T² + c3/T³.
constexpr double kCritical[3][4] = {{-3.43035, -6.5393, -16.786, -79.433},
                                    {-2.86154, -2.8903, -4.234, -40.040},
                                    {-2.56677, -1.5384, -2.809, 0}};

double critical_value(const double (&c)[4], double observations) {
    return c[0] + c[1] / observations + c[2] / (observations * observations) +
           c[3] / (observations * observations * observations);
}

}  // namespace

double mackinnon_p_value(double statistic) {
    if (statistic > kTauMax) {
        return 1.0;
    }
    if (statistic < kTauMin) {
        return 0.0;
    }
    double z = 0;
    double power = 1;
    if (statistic <= kTauStar) {
        for (const double c : kSmallP) {
            z += c * power;
            power *= statistic;
        }
    } else {
        for (const double c : kLargeP) {
            z += c * power;
            power *= statistic;
        }
    }
    return boost::math::cdf(boost::math::normal(), z);
}

namespace {

// The ADF regression with `lags` lagged differences over the rows t = first … n − 2 of the
// differences (Δy_t = y_{t+1} − y_t): Δy_t on y_t, Δy_{t−1} … Δy_{t−lags} and a constant.
std::optional<LeastSquaresFit> adf_regression(const std::vector<double> &series,
                                              const std::vector<double> &differences, int lags,
                                              int first) {
    std::vector<std::vector<double>> columns(static_cast<size_t>(lags) + 2);
    std::vector<double> response;
    for (int t = first; t < static_cast<int>(differences.size()); ++t) {
        response.push_back(differences[t]);
        columns[0].push_back(series[t]);
        for (int i = 1; i <= lags; ++i) {
            columns[i].push_back(differences[t - i]);
        }
        columns.back().push_back(1.0);
    }
    return least_squares(columns, response);
}

// The lag count with the lowest AIC among 0 … max_lags, every candidate fitted on the same
// rows (those the longest allows), ties to the fewer lags: statsmodels' `autolag="AIC"`.
int lags_by_aic(const std::vector<double> &series, const std::vector<double> &differences,
                int max_lags) {
    int best = 0;
    double best_aic = INFINITY;
    for (int lags = 0; lags <= max_lags; ++lags) {
        const auto fit = adf_regression(series, differences, lags, max_lags);
        if (!fit || fit->residual_sum_of_squares <= 0) {
            continue;
        }
        const double rows = fit->degrees_of_freedom + static_cast<double>(lags) + 2;
        const double aic = rows * std::log(fit->residual_sum_of_squares / rows) +
                           2 * (static_cast<double>(lags) + 2);
        if (aic < best_aic) {
            best_aic = aic;
            best = lags;
        }
    }
    return best;
}

}  // namespace

std::optional<UnitRootTest> augmented_dickey_fuller(const std::vector<double> &series,
                                                    std::optional<int> lags) {
    const int n = static_cast<int>(series.size());
    // statsmodels' default bound: ⌈12 (n/100)^¼⌉, at most n/2 − 2 (one trend term).
    const int max_lags =
        std::min(n / 2 - 2, static_cast<int>(std::ceil(12 * std::pow(n / 100.0, 0.25))));
    if (n < 4 || (lags && *lags < 0) || (!lags && max_lags < 0)) {
        return std::nullopt;
    }
    std::vector<double> differences;
    for (int t = 1; t < n; ++t) {
        differences.push_back(series[t] - series[t - 1]);
    }
    const int used_lags = lags ? *lags : lags_by_aic(series, differences, max_lags);
    const auto fit = adf_regression(series, differences, used_lags, used_lags);
    if (!fit || fit->standard_errors[0] == 0 || !std::isfinite(fit->standard_errors[0])) {
        return std::nullopt;
    }
    const int rows = n - 1 - used_lags;
    UnitRootTest test;
    test.statistic = fit->coefficients[0] / fit->standard_errors[0];
    test.p_value = mackinnon_p_value(test.statistic);
    test.lags = used_lags;
    test.observations = rows;
    test.critical_1 = critical_value(kCritical[0], rows);
    test.critical_5 = critical_value(kCritical[1], rows);
    test.critical_10 = critical_value(kCritical[2], rows);
    return test;
}

}  // namespace sbx::scoring
