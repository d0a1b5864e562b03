// Boost.Math's Student t distribution under the two tests; sample statistics by hand.
#include "scoring/mean_tests.hpp"

#include <cmath>

#include <boost/math/distributions/students_t.hpp>

#include "scoring/statistics.hpp"

namespace sbx::scoring {

std::optional<double> welch_t_test(const std::vector<double> &a, const std::vector<double> &b) {
    if (a.size() < 2 || b.size() < 2) {
        return std::nullopt;
    }
    const auto na = static_cast<double>(a.size());
    const auto nb = static_cast<double>(b.size());
    const double va = std::pow(sample_stddev(a), 2) / na;
    const double vb = std::pow(sample_stddev(b), 2) / nb;
    const double difference = mean(a) - mean(b);
    if (va + vb == 0) {
        return difference == 0 ? 1.0 : 0.0;
    }
    const double t = difference / std::sqrt(va + vb);
    // Welch–Satterthwaite degrees of freedom.
    const double freedom = (va + vb) * (va + vb) / (va * va / (na - 1) + vb * vb / (nb - 1));
    const boost::math::students_t distribution(freedom);
    return 2 * boost::math::cdf(boost::math::complement(distribution, std::fabs(t)));
}

std::optional<double> within_margin_t_test(const std::vector<double> &values, double margin) {
    if (values.size() < 2) {
        return std::nullopt;
    }
    const double center = mean(values);
    const double error = sample_stddev(values) / std::sqrt(static_cast<double>(values.size()));
    if (error == 0) {
        return std::fabs(center) < margin ? 0.0 : 1.0;
    }
    const boost::math::students_t distribution(static_cast<double>(values.size() - 1));
    // H0: mean ≤ −margin (rejected when the mean is well above it), and H0: mean ≥ margin.
    const double above =
        boost::math::cdf(boost::math::complement(distribution, (center + margin) / error));
    const double below = boost::math::cdf(distribution, (center - margin) / error);
    return std::max(above, below);
}

}  // namespace sbx::scoring
