// The grammar of quantities in settings and presets (docs/configuration.md, "Units"): a
// non-negative decimal, then a unit from a short fixed list; no sign, exponent or space.
// Header-only and exception-free, so that the host and every plugin that reads a preset
// spell quantities alike; each caller words its own error around a nullopt.
#pragma once

#include <charconv>
#include <cmath>
#include <optional>
#include <string_view>
#include <utility>

namespace sbx::units {

// "12.5Mi" -> {12.5, "Mi"}; nullopt for any other shape ("1.", ".5", "-1", "1e3", "").
inline std::optional<std::pair<double, std::string_view>> number_and_unit(std::string_view text) {
    const auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
    std::size_t end = 0;
    while (end < text.size() && is_digit(text[end])) {
        ++end;
    }
    if (end == 0) {
        return std::nullopt;
    }
    if (end < text.size() && text[end] == '.') {
        const std::size_t fraction_start = ++end;
        while (end < text.size() && is_digit(text[end])) {
            ++end;
        }
        if (end == fraction_start) {
            return std::nullopt;
        }
    }
    double value = 0;
    const auto [stop, error] = std::from_chars(text.data(), text.data() + end, value);
    if (error != std::errc() || stop != text.data() + end || !std::isfinite(value)) {
        return std::nullopt;
    }
    return std::make_pair(value, text.substr(end));
}

// Bits per second in one `unit` of bandwidth: none or bps 1, kbps 1e3, mbps 1e6, gbps 1e9
// (decimal, as tc and network people write them; Kbps, Mbps, Gbps too); nullopt otherwise.
inline std::optional<double> bandwidth_unit_scale(std::string_view unit) {
    if (unit.empty() || unit == "bps") {
        return 1.0;
    }
    if (unit == "kbps" || unit == "Kbps") {
        return 1e3;
    }
    if (unit == "mbps" || unit == "Mbps") {
        return 1e6;
    }
    if (unit == "gbps" || unit == "Gbps") {
        return 1e9;
    }
    return std::nullopt;
}

// A bandwidth in bits per second ("10mbps" -> 1e7); nullopt when it is not one. Bounds
// (nothing through at 0, an upper limit) are the caller's.
inline std::optional<double> parse_bandwidth(std::string_view text) {
    const auto parsed = number_and_unit(text);
    if (!parsed) {
        return std::nullopt;
    }
    const auto scale = bandwidth_unit_scale(parsed->second);
    if (!scale) {
        return std::nullopt;
    }
    // Finite digits times a unit can still pass the largest double: no bandwidth at all.
    const double bits = parsed->first * *scale;
    return std::isfinite(bits) ? std::optional<double>(bits) : std::nullopt;
}

// A fraction written as 0.05 or as a percentage "5%" (-> 0.05); nullopt when it is neither.
// The upper bound (1, 100%) is the caller's, so that it can say what was too much.
inline std::optional<double> parse_fraction(std::string_view text) {
    const auto parsed = number_and_unit(text);
    if (!parsed || (!parsed->second.empty() && parsed->second != "%")) {
        return std::nullopt;
    }
    return parsed->second == "%" ? parsed->first / 100.0 : parsed->first;
}

// Bytes in one `unit` of size: none or b 1; k, m, g, t with an optional b, i or ib, any case,
// binary (1Ki = 1K = 1024, as Docker reads them); nullopt otherwise.
inline std::optional<double> size_unit_scale(std::string_view unit) {
    const auto lower = [](char c) {
        return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
    };
    if (unit.empty() || (unit.size() == 1 && lower(unit[0]) == 'b')) {
        return 1.0;
    }
    const std::string_view prefixes = "kmgt";
    const std::size_t power = prefixes.find(lower(unit[0]));
    if (power == std::string_view::npos) {
        return std::nullopt;
    }
    const std::string_view rest = unit.substr(1);
    const bool suffix_ok = rest.empty() ||
                           (rest.size() == 1 && (lower(rest[0]) == 'b' || lower(rest[0]) == 'i')) ||
                           (rest.size() == 2 && lower(rest[0]) == 'i' && lower(rest[1]) == 'b');
    if (!suffix_ok) {
        return std::nullopt;
    }
    return std::ldexp(1.0, 10 * static_cast<int>(power + 1));
}

// A size in whole bytes ("64Ki" -> 65536, "1.5Ki" -> 1536); nullopt when it is not one, or
// not a whole number of bytes, or 2^63 bytes or more.
inline std::optional<long long> parse_size(std::string_view text) {
    const auto parsed = number_and_unit(text);
    if (!parsed) {
        return std::nullopt;
    }
    const auto scale = size_unit_scale(parsed->second);
    if (!scale) {
        return std::nullopt;
    }
    const double bytes = parsed->first * *scale;
    if (bytes != std::floor(bytes) || bytes >= 9.2e18) {
        return std::nullopt;
    }
    return static_cast<long long>(bytes);
}

}  // namespace sbx::units
