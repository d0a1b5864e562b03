// Strict reading of unit-bearing preset values for injectors (docs/configuration.md "Units"). The
// host checks the same keys (preset_checks.cpp), but a plugin cannot link the host and must
// not trust a host it did not write: shared here so that the injectors agree on spelling.
#pragma once

#include <sbx/plugin.hpp>

#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>

namespace sbx::support {

// Largest bandwidth accepted (1 Tbit/s): tc takes 64-bit rates, and nothing here is faster.
constexpr double kMaxBitsPerSecond = 1e12;

[[noreturn]] inline void refuse(const std::string &key, const nlohmann::json &value,
                                const std::string &problem, const std::string &hint) {
    const std::string shown = value.is_string() ? value.get<std::string>() : value.dump();
    throw Error(SBX_INVALID, key + ": '" + shown + "' " + problem + "; " + hint);
}

// "12.5" or "12" followed by a unit; nullopt for any other shape (signs, exponents, spaces).
inline std::optional<std::pair<double, std::string>> number_and_unit(const std::string &text) {
    std::size_t digits = 0;
    while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') {
        ++digits;
    }
    if (digits == 0) {
        return std::nullopt;
    }
    std::size_t end = digits;
    if (end < text.size() && text[end] == '.') {
        const std::size_t fraction_start = ++end;
        while (end < text.size() && text[end] >= '0' && text[end] <= '9') {
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

// The value as text: presets are string-valued, but JSON numbers are taken as written.
inline std::optional<std::string> unit_text(const nlohmann::json &value) {
    if (value.is_string()) {
        return value.get<std::string>();
    }
    if (value.is_number()) {
        return value.dump();
    }
    return std::nullopt;
}

// A bandwidth in bits per second: a bare number, or with bps, kbps, mbps, gbps (decimal;
// Kbps, Mbps, Gbps too), from 1 bps to 1000 gbps. Throws sbx::Error(SBX_INVALID) naming
// `key`; `zero_hint` says what to write instead of a bandwidth that lets nothing through.
inline double bits_per_second(const std::string &key, const nlohmann::json &value,
                              const std::string &zero_hint) {
    const char *hint =
        "write a bandwidth such as 10mbps, 512kbps or 1gbps (bits per second, decimal)";
    const auto text = unit_text(value);
    const auto parsed = text ? number_and_unit(*text) : std::nullopt;
    if (!parsed) {
        refuse(key, value, "is not a bandwidth", hint);
    }
    const auto &[number, unit] = *parsed;
    double scale = 0;
    if (unit.empty() || unit == "bps") {
        scale = 1;
    } else if (unit == "kbps" || unit == "Kbps") {
        scale = 1e3;
    } else if (unit == "mbps" || unit == "Mbps") {
        scale = 1e6;
    } else if (unit == "gbps" || unit == "Gbps") {
        scale = 1e9;
    } else {
        refuse(key, value, "is not a bandwidth", hint);
    }
    const double result = number * scale;
    if (result < 1) {
        refuse(key, value, "would let no traffic through", zero_hint);
    }
    if (result > kMaxBitsPerSecond) {
        refuse(key, value, "is above 1000gbps", hint);
    }
    return result;
}

}  // namespace sbx::support
