// Ordinary least squares by Householder QR: the coefficients and their standard errors, which
// the unit-root test reads its statistic from. QR rather than the normal equations: a
// regressor in the thousands beside a constant would square an already large condition
// number and lose the digits the published reference values check.
#pragma once

#include <optional>
#include <vector>

namespace sbx::scoring {

struct LeastSquaresFit {
    std::vector<double> coefficients;
    std::vector<double> standard_errors;  // from s² (X'X)⁻¹, s² = RSS / (n − k)
    double residual_sum_of_squares = 0;
    int degrees_of_freedom = 0;  // n − k
};

// Fits y ≈ X·b for `columns` (each a regressor of y.size() values). None when there are
// not more observations than regressors, or the regressors are linearly dependent.
std::optional<LeastSquaresFit> least_squares(const std::vector<std::vector<double>> &columns,
                                             const std::vector<double> &y);

}  // namespace sbx::scoring
