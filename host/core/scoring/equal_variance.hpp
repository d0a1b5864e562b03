// Levene's test of equal variances, in the Brown-Forsythe form (deviations from each group's
// median), as synergy convergence uses it (docs/semantics.md "Convergence"): a large p-value
// means the groups' spreads cannot be told apart, i.e. the series has stopped settling or
// swinging. The p-value is the upper tail of Snedecor's F (Boost.Math); the test reproduces
// the NIST handbook's reference value.
#pragma once

#include <optional>
#include <vector>

namespace sbx::scoring {

struct EqualVarianceTest {
    double statistic = 0;  // W
    double p_value = 1;
    int numerator_degrees = 0;    // groups − 1
    int denominator_degrees = 0;  // observations − groups
};

// None for fewer than two groups, an empty group, or no observation beyond one per group.
// Groups whose deviations are all zero give W = 0 (p 1) when every group is so.
std::optional<EqualVarianceTest> levene_test(const std::vector<std::vector<double>> &groups);

}  // namespace sbx::scoring
