// Strict unit parsers: a number, then a unit from a short fixed list, nothing else.
#include "util/units.hpp"

#include <sbx/units.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <utility>

#include "util/number_parse.hpp"

namespace sbx {

UnitError::UnitError(std::string problem, std::string hint)
    : std::invalid_argument(problem + ": " + hint),
      problem_(std::move(problem)),
      hint_(std::move(hint)) {}

namespace {

constexpr const char *kSizeHint =
    "write a number with a unit such as 64Ki, 512Mi, 1Gi (binary), 512M/512mb/1g (also "
    "binary, as Docker reads them) or a bare number of bytes";
constexpr const char *kDurationHint =
    "write a number with a unit such as 250ms, 30s, 5m or 1h, or a bare number of seconds";
constexpr const char *kBandwidthHint =
    "write a number with a unit such as 500kbps, 10mbps or 1gbps (bits per second, decimal), "
    "or a bare number of bits per second";
constexpr const char *kFractionHint =
    "write a fraction between 0 and 1 such as 0.05, or a percentage such as 5%";

std::string quoted(std::string_view text) {
    return "'" + std::string(text) + "'";
}

// "12.5Mi" -> {"12", "5", "Mi"}: digits, optional '.' and digits, then the unit.
struct Quantity {
    std::string_view whole;
    std::string_view fraction;  // digits after the point; empty when there is none
    std::string_view unit;
};

bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

std::optional<Quantity> split_quantity(std::string_view text) {
    size_t i = 0;
    while (i < text.size() && is_digit(text[i])) {
        ++i;
    }
    if (i == 0) {
        return std::nullopt;
    }
    Quantity q;
    q.whole = text.substr(0, i);
    if (i < text.size() && text[i] == '.') {
        size_t start = ++i;
        while (i < text.size() && is_digit(text[i])) {
            ++i;
        }
        if (i == start) {
            return std::nullopt;  // "1." or "1.Gi"
        }
        q.fraction = text.substr(start, i - start);
    }
    q.unit = text.substr(i);
    return q;
}

// Seconds in one `unit` of duration: none or s 1, ms 1/1000, m 60, h 3600; nullopt otherwise.
std::optional<double> duration_unit_seconds(std::string_view unit) {
    if (unit.empty() || unit == "s") {
        return 1.0;
    }
    if (unit == "ms") {
        return 1e-3;
    }
    if (unit == "m") {
        return 60.0;
    }
    if (unit == "h") {
        return 3600.0;
    }
    return std::nullopt;
}

bool starts_negative(std::string_view text) {
    return !text.empty() && text.front() == '-';
}

// The parsed number for the duration, bandwidth and fraction parsers (the SDK's grammar,
// which plugins read presets with too).
using units::number_and_unit;

std::optional<uint64_t> size_multiplier(std::string_view unit) {
    std::string lower;
    for (char c : unit) {
        lower += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    }
    if (lower.empty() || lower == "b") {
        return 1;
    }
    // Docker reads every one of these as a power of 1024; so does Kubernetes for "Ki".
    static const std::array<std::pair<char, int>, 4> prefixes = {
        {{'k', 10}, {'m', 20}, {'g', 30}, {'t', 40}}};
    for (const auto &[letter, shift] : prefixes) {
        if (lower[0] != letter) {
            continue;
        }
        std::string_view rest = std::string_view(lower).substr(1);
        if (rest.empty() || rest == "b" || rest == "i" || rest == "ib") {
            return uint64_t{1} << shift;
        }
    }
    return std::nullopt;
}

std::string format_decimal(double value, int max_decimals) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", max_decimals, value);
    std::string text(buffer);
    if (text.find('.') != std::string::npos) {
        while (text.back() == '0') {
            text.pop_back();
        }
        if (text.back() == '.') {
            text.pop_back();
        }
    }
    return text;
}

}  // namespace

uint64_t parse_size_bytes(std::string_view text) {
    if (text.empty()) {
        throw UnitError("an empty value is not a size", kSizeHint);
    }
    if (starts_negative(text)) {
        throw UnitError(quoted(text) + " is a negative size", kSizeHint);
    }
    auto q = split_quantity(text);
    std::optional<uint64_t> multiplier;
    if (q) {
        multiplier = size_multiplier(q->unit);
    }
    if (!q || !multiplier) {
        throw UnitError(quoted(text) + " is not a size", kSizeHint);
    }
    if (*multiplier == 1 && !q->fraction.empty() &&
        q->fraction.find_first_not_of('0') != std::string_view::npos) {
        throw UnitError(quoted(text) + " is not a whole number of bytes",
                        "write a whole number of bytes, or use a unit such as 1.5Ki or 1.5Gi");
    }
    const std::string too_large = quoted(text) + " is too large for a size";
    const char *too_large_hint = "write a size below 16Ei (2^64 bytes), such as 512Gi or 4Ti";
    // Digits only: nullopt means beyond 2^64.
    const auto whole = util::parse_uint64(q->whole, util::LeadingPlus::refused);
    if (!whole) {
        throw UnitError(too_large, too_large_hint);
    }
    uint64_t bytes = 0;
    if (__builtin_mul_overflow(*whole, *multiplier, &bytes)) {
        throw UnitError(too_large, too_large_hint);
    }
    if (!q->fraction.empty() && *multiplier > 1) {
        // 18 digits are far below a byte even at Ti; more would only overflow the integer.
        std::string_view digits = q->fraction.substr(0, 18);
        const uint64_t numerator =
            util::parse_uint64(digits, util::LeadingPlus::refused).value_or(0);
        long double fraction = static_cast<long double>(numerator);
        for (size_t i = 0; i < digits.size(); ++i) {
            fraction /= 10;
        }
        auto extra = static_cast<uint64_t>(fraction * static_cast<long double>(*multiplier));
        if (__builtin_add_overflow(bytes, extra, &bytes)) {
            throw UnitError(too_large, too_large_hint);
        }
    }
    return bytes;
}

double parse_duration_seconds(std::string_view text) {
    if (text.empty()) {
        throw UnitError("an empty value is not a duration", kDurationHint);
    }
    if (starts_negative(text)) {
        throw UnitError(quoted(text) + " is a negative duration", kDurationHint);
    }
    const auto parsed = number_and_unit(text);
    const auto scale = parsed ? duration_unit_seconds(parsed->second) : std::nullopt;
    if (!scale) {
        throw UnitError(quoted(text) + " is not a duration", kDurationHint);
    }
    const double seconds = parsed->first * *scale;
    // A finite number can still pass the largest double once scaled (308 digits, then "h");
    // infinity is no duration a run can wait for, and it would not print back as one.
    if (!std::isfinite(seconds)) {
        throw UnitError(quoted(text) + " is too long a duration", kDurationHint);
    }
    return seconds;
}

int64_t timeout_milliseconds(double seconds) {
    constexpr double kMaxMilliseconds = 1e15;
    return std::llround(std::clamp(seconds * 1000.0, 1.0, kMaxMilliseconds));
}

double parse_bandwidth_bits_per_second(std::string_view text) {
    if (text.empty()) {
        throw UnitError("an empty value is not a bandwidth", kBandwidthHint);
    }
    if (starts_negative(text)) {
        throw UnitError(quoted(text) + " is a negative bandwidth", kBandwidthHint);
    }
    if (const auto bits = units::parse_bandwidth(text)) {
        return *bits;
    }
    throw UnitError(quoted(text) + " is not a bandwidth", kBandwidthHint);
}

double parse_fraction(std::string_view text) {
    if (text.empty()) {
        throw UnitError("an empty value is not a fraction", kFractionHint);
    }
    if (starts_negative(text)) {
        throw UnitError(quoted(text) + " is a negative fraction", kFractionHint);
    }
    const auto value = units::parse_fraction(text);
    if (!value) {
        throw UnitError(quoted(text) + " is not a fraction", kFractionHint);
    }
    if (*value > 1.0) {
        throw UnitError(quoted(text) + " is more than 1 (100%)", kFractionHint);
    }
    return *value;
}

std::string format_size(uint64_t bytes) {
    static const std::array<const char *, 4> units = {"Ki", "Mi", "Gi", "Ti"};
    if (bytes < 1024) {
        return std::to_string(bytes) + "B";
    }
    size_t index = 0;
    uint64_t scale = 1024;
    while (index + 1 < units.size() && bytes / scale >= 1024) {
        scale *= 1024;
        ++index;
    }
    if (bytes % scale == 0) {
        return std::to_string(bytes / scale) + units[index];
    }
    const double value = static_cast<double>(bytes) / static_cast<double>(scale);
    std::string text = format_decimal(value, 2);
    // Just under 2^64 bytes, rounding up would print 16777216Ti, which is 2^64 bytes and too
    // large to parse back (found by tests/fuzz/fuzz_units). A double cannot tell those sizes
    // from 2^64, so they get the largest two-decimal size below it.
    if (util::parse_double(text).value_or(0) * static_cast<double>(scale) >=
        18446744073709551616.0) {
        text = "16777215.99";
    }
    return text + units[index];
}

std::string format_duration(double seconds) {
    if (!std::isfinite(seconds) || seconds < 0) {
        return format_decimal(seconds, 3) + "s";
    }
    if (seconds == 0) {
        return "0s";
    }
    if (seconds < 1) {
        return format_decimal(seconds * 1000.0, 3) + "ms";
    }
    if (seconds >= 3600 && std::fmod(seconds, 3600.0) == 0) {
        return format_decimal(seconds / 3600.0, 0) + "h";
    }
    if (seconds >= 60 && std::fmod(seconds, 60.0) == 0) {
        return format_decimal(seconds / 60.0, 0) + "m";
    }
    return format_decimal(seconds, 3) + "s";
}

}  // namespace sbx
