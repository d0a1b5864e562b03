// Shared statistics for the scoring formulas.
#include "scoring/statistics.hpp"

#include <algorithm>
#include <cmath>

namespace sbx::scoring {

namespace {

double sum_of_squared_deviations(const std::vector<double> &values) {
    const double centre = mean(values);
    double sum = 0;
    for (double value : values) {
        sum += (value - centre) * (value - centre);
    }
    return sum;
}

}  // namespace

double sum(const std::vector<double> &values) {
    double total = 0;
    for (double value : values) {
        total += value;
    }
    return total;
}

double mean(const std::vector<double> &values) {
    if (values.empty()) {
        return 0;
    }
    return sum(values) / static_cast<double>(values.size());
}

double population_stddev(const std::vector<double> &values) {
    if (values.size() < 2) {
        return 0;
    }
    return std::sqrt(sum_of_squared_deviations(values) / static_cast<double>(values.size()));
}

double sample_stddev(const std::vector<double> &values) {
    if (values.size() < 2) {
        return 0;
    }
    return std::sqrt(sum_of_squared_deviations(values) / static_cast<double>(values.size() - 1));
}

double clip(double value, double low, double high) {
    return std::min(std::max(value, low), high);
}

double exponential_moving_average(const std::vector<double> &values, double alpha) {
    if (values.empty()) {
        return 0;
    }
    double average = values.front();
    for (size_t i = 1; i < values.size(); ++i) {
        average = alpha * values[i] + (1 - alpha) * average;
    }
    return average;
}

std::vector<double> last_values(const std::vector<double> &values, size_t count) {
    const size_t keep = std::min(count, values.size());
    return {values.end() - static_cast<std::ptrdiff_t>(keep), values.end()};
}

}  // namespace sbx::scoring
