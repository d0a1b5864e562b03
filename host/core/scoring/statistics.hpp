// The few statistics every score here is built from (means, deviations, clipping, EMA), kept
// in one place so that each formula in docs/semantics.md reads the same way wherever it is used.
#pragma once

#include <cstddef>
#include <vector>

namespace sbx::scoring {

// The sum; 0 for no values.
double sum(const std::vector<double> &values);

// The arithmetic mean; 0 for no values (a score over nothing must not be NaN).
double mean(const std::vector<double> &values);

// Population standard deviation sqrt(Σ(x − mean)² / n); 0 for fewer than two values.
double population_stddev(const std::vector<double> &values);

// Sample standard deviation sqrt(Σ(x − mean)² / (n − 1)); 0 for fewer than two values.
double sample_stddev(const std::vector<double> &values);

// `value` limited to [low, high].
double clip(double value, double low, double high);

// Exponential moving average with smoothing `alpha`: it starts at the first value, then
// e = alpha · x + (1 − alpha) · e for each later value. 0 for no values.
double exponential_moving_average(const std::vector<double> &values, double alpha);

// The last `count` values (all of them when there are fewer), in order.
std::vector<double> last_values(const std::vector<double> &values, size_t count);

}  // namespace sbx::scoring
