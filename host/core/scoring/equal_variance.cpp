#include "scoring/equal_variance.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <boost/math/distributions/fisher_f.hpp>

namespace sbx::scoring {
namespace {

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const size_t middle = values.size() / 2;
    return values.size() % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

}  // namespace

std::optional<EqualVarianceTest> levene_test(const std::vector<std::vector<double>> &groups) {
    const size_t k = groups.size();
    size_t total = 0;
    for (const auto &group : groups) {
        if (group.empty()) {
            return std::nullopt;
        }
        total += group.size();
    }
    if (k < 2 || total <= k) {
        return std::nullopt;
    }
    // Z_ij = |Y_ij − median_i|; W is the one-way ANOVA F of the Z.
    std::vector<std::vector<double>> deviations;
    std::vector<double> group_means;
    double grand_sum = 0;
    for (const auto &group : groups) {
        const double center = median(group);
        std::vector<double> z;
        double sum = 0;
        for (const double value : group) {
            z.push_back(std::fabs(value - center));
            sum += z.back();
        }
        grand_sum += sum;
        group_means.push_back(sum / static_cast<double>(z.size()));
        deviations.push_back(std::move(z));
    }
    const double grand_mean = grand_sum / static_cast<double>(total);
    double between = 0;
    double within = 0;
    for (size_t i = 0; i < k; ++i) {
        const double gap = group_means[i] - grand_mean;
        between += static_cast<double>(deviations[i].size()) * gap * gap;
        for (const double z : deviations[i]) {
            within += (z - group_means[i]) * (z - group_means[i]);
        }
    }
    EqualVarianceTest test;
    test.numerator_degrees = static_cast<int>(k - 1);
    test.denominator_degrees = static_cast<int>(total - k);
    if (within == 0) {
        // Every group's deviations are equal within it: equal spreads give W 0; different
        // ones differ without any noise, which is as unequal as it gets.
        test.statistic = between == 0 ? 0 : std::numeric_limits<double>::infinity();
        test.p_value = between == 0 ? 1 : 0;
        return test;
    }
    test.statistic = static_cast<double>(test.denominator_degrees) /
                     static_cast<double>(test.numerator_degrees) * between / within;
    test.p_value = boost::math::cdf(boost::math::complement(
        boost::math::fisher_f(test.numerator_degrees, test.denominator_degrees), test.statistic));
    return test;
}

}  // namespace sbx::scoring
