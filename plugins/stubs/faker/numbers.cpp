// Number ranges and draws of the faker stub (see numbers.hpp).
#include "numbers.hpp"

#include <sbx/plugin.hpp>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

namespace sbx_faker {
namespace {

constexpr double kSpan = 1000.0;
// -2^63 and the largest double below 2^63: every double in between converts to int64.
constexpr double kLowest = -9223372036854775808.0;
constexpr double kHighest = 9223372036854774784.0;

std::string text(double value) {
    return nlohmann::json(value).dump();
}

void check_order(std::optional<double> min, std::optional<double> max, const std::string &where) {
    if (min && max && *min > *max) {
        throw sbx::Error(SBX_INVALID, where + ": min " + text(*min) + " is above max " +
                                          text(*max) + "; write a max that is at least min");
    }
}

// The range of a side that is missing, from the side that is there (or from 0).
void fill(std::optional<double> min, std::optional<double> max, double &lo, double &hi) {
    lo = min.value_or(0.0);
    hi = max.value_or(kSpan);
    if (min && !max) {
        hi = *min + kSpan;
    } else if (max && !min && *max < 0.0) {
        lo = *max - kSpan;
    }
}

}  // namespace

IntRange int_range(std::optional<double> min, std::optional<double> max, const std::string &where) {
    check_order(min, max, where);
    double lo = 0.0;
    double hi = 0.0;
    fill(min, max, lo, hi);
    lo = std::clamp(std::ceil(lo), kLowest, kHighest);
    hi = std::clamp(std::floor(hi), kLowest, kHighest);
    if (lo > hi || (min && std::ceil(*min) > kHighest) || (max && std::floor(*max) < kLowest)) {
        throw sbx::Error(SBX_INVALID, where + ": no 64-bit whole number lies within min " +
                                          (min ? text(*min) : "(none)") + " and max " +
                                          (max ? text(*max) : "(none)"));
    }
    return {static_cast<int64_t>(lo), static_cast<int64_t>(hi)};
}

FloatRange float_range(std::optional<double> min, std::optional<double> max,
                       const std::string &where) {
    check_order(min, max, where);
    FloatRange range;
    fill(min, max, range.lo, range.hi);
    if (!std::isfinite(range.hi)) {  // min near the top of the double range
        range.hi = *min;
    }
    if (!std::isfinite(range.lo)) {
        range.lo = *max;
    }
    return range;
}

int64_t draw(const IntRange &range, sbx::SplitMix64 &rng) {
    return rng.between(range.lo, range.hi);
}

double draw(const FloatRange &range, sbx::SplitMix64 &rng) {
    // Interpolated rather than lo + u * (hi - lo), which overflows for extreme bounds.
    const double u = rng.unit();
    const double value = std::clamp(range.lo * (1.0 - u) + range.hi * u, range.lo, range.hi);
    const double cents = std::round(value * 100.0) / 100.0;
    return std::isfinite(cents) && cents >= range.lo && cents <= range.hi ? cents : value;
}

}  // namespace sbx_faker
