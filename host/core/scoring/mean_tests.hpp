// Student's t tests on means, for the convergence gates that ask for a confidence
// (SYNERGY_CONFIDENCE, ROI_CONFIDENCE): has a mean shifted, and is a mean within a margin.
#pragma once

#include <optional>
#include <vector>

namespace sbx::scoring {

// Welch's two-sided t test of equal means: its p-value. nullopt with fewer than two values
// in a sample; with no spread in either, 1 when the means are equal and 0 when not.
std::optional<double> welch_t_test(const std::vector<double> &a, const std::vector<double> &b);

// The equivalence test (two one-sided t tests, TOST) that the mean of `values` lies within
// (−margin, margin): its p-value, the larger of the two one-sided ones; a small p means
// confidently within. nullopt with fewer than two values; with no spread, 0 when the mean
// is within and 1 when not.
std::optional<double> within_margin_t_test(const std::vector<double> &values, double margin);

}  // namespace sbx::scoring
