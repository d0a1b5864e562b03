// Number ranges of the faker stub: int and float slots (min/max) and JSON Schema numbers
// (minimum/maximum). A missing side is filled from 0 and a span of 1000, so unbounded
// numbers look like quantities rather than extremes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <sbx/random.hpp>

namespace sbx_faker {

struct IntRange {
    int64_t lo = 0;
    int64_t hi = 1000;
};

struct FloatRange {
    double lo = 0.0;
    double hi = 1000.0;
};

// [min, max] rounded inwards and clamped into int64; [0, 1000] without bounds, [min, min +
// 1000] with only min, [0, max] (or [max − 1000, max] when max < 0) with only max.
// SBX_INVALID naming `where` when min > max or no int64 lies within.
IntRange int_range(std::optional<double> min, std::optional<double> max, const std::string &where);
FloatRange float_range(std::optional<double> min, std::optional<double> max,
                       const std::string &where);

// A uniform draw, floats rounded to cents when that stays inside the range.
int64_t draw(const IntRange &range, sbx::SplitMix64 &rng);
double draw(const FloatRange &range, sbx::SplitMix64 &rng);

}  // namespace sbx_faker
