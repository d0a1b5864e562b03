#include "scoring/least_squares.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace sbx::scoring {

std::optional<LeastSquaresFit> least_squares(const std::vector<std::vector<double>> &columns,
                                             const std::vector<double> &y) {
    const size_t n = y.size();
    const size_t k = columns.size();
    if (k == 0 || n <= k) {
        return std::nullopt;
    }
    // a: the columns, reduced in place to R (upper triangle) and the Householder vectors;
    // qty: Qᵀy.
    std::vector<std::vector<double>> a = columns;
    std::vector<double> qty = y;
    for (size_t j = 0; j < k; ++j) {
        double norm = 0;
        for (size_t i = j; i < n; ++i) {
            norm += a[j][i] * a[j][i];
        }
        norm = std::sqrt(norm);
        if (norm == 0) {
            return std::nullopt;
        }
        const double alpha = a[j][j] > 0 ? -norm : norm;
        std::vector<double> v(n, 0.0);
        v[j] = a[j][j] - alpha;
        for (size_t i = j + 1; i < n; ++i) {
            v[i] = a[j][i];
        }
        double v_norm = 0;
        for (size_t i = j; i < n; ++i) {
            v_norm += v[i] * v[i];
        }
        const auto reflect = [&](std::vector<double> &column) {
            double dot = 0;
            for (size_t i = j; i < n; ++i) {
                dot += v[i] * column[i];
            }
            const double scale = 2 * dot / v_norm;
            for (size_t i = j; i < n; ++i) {
                column[i] -= scale * v[i];
            }
        };
        if (v_norm > 0) {
            for (size_t c = j; c < k; ++c) {
                reflect(a[c]);
            }
            reflect(qty);
        }
    }
    // Relative to the largest diagonal: a smaller one means dependent regressors.
    double largest = 0;
    for (size_t j = 0; j < k; ++j) {
        largest = std::max(largest, std::fabs(a[j][j]));
    }
    for (size_t j = 0; j < k; ++j) {
        if (std::fabs(a[j][j]) <= 1e-12 * largest) {
            return std::nullopt;
        }
    }
    LeastSquaresFit fit;
    fit.coefficients.assign(k, 0.0);
    for (size_t row = k; row-- > 0;) {
        double value = qty[row];
        for (size_t c = row + 1; c < k; ++c) {
            value -= a[c][row] * fit.coefficients[c];
        }
        fit.coefficients[row] = value / a[row][row];
    }
    for (size_t i = k; i < n; ++i) {
        fit.residual_sum_of_squares += qty[i] * qty[i];
    }
    fit.degrees_of_freedom = static_cast<int>(n - k);
    const double s2 = fit.residual_sum_of_squares / fit.degrees_of_freedom;
    // (X'X)⁻¹ = R⁻¹R⁻ᵀ: its diagonal is the squared norm of each row of R⁻¹.
    std::vector<std::vector<double>> r_inverse(k, std::vector<double>(k, 0.0));  // [row][col]
    for (size_t col = 0; col < k; ++col) {
        r_inverse[col][col] = 1 / a[col][col];
        for (size_t row = col; row-- > 0;) {
            double value = 0;
            for (size_t m = row + 1; m <= col; ++m) {
                value += a[m][row] * r_inverse[m][col];
            }
            r_inverse[row][col] = -value / a[row][row];
        }
    }
    fit.standard_errors.assign(k, 0.0);
    for (size_t row = 0; row < k; ++row) {
        double squared = 0;
        for (size_t col = row; col < k; ++col) {
            squared += r_inverse[row][col] * r_inverse[row][col];
        }
        fit.standard_errors[row] = std::sqrt(s2 * squared);
    }
    return fit;
}

}  // namespace sbx::scoring
