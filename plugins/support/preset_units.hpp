// Strict reading of unit-bearing preset values for injectors (docs/configuration.md "Units"). The
// host checks the same keys (preset_checks.cpp), but a plugin cannot link the host and must
// not trust a host it did not write: shared here so that the injectors agree on spelling.
#pragma once

#include <sbx/plugin.hpp>
#include <sbx/units.hpp>

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace sbx::support {

// Largest bandwidth accepted (1 Tbit/s): tc takes 64-bit rates, and nothing here is faster.
constexpr double kMaxBitsPerSecond = 1e12;

[[noreturn]] inline void refuse(const std::string &key, const nlohmann::json &value,
                                const std::string &problem, const std::string &hint) {
    const std::string shown = value.is_string() ? value.get<std::string>() : value.dump();
    throw Error(SBX_INVALID, key + ": '" + shown + "' " + problem + "; " + hint);
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
    const auto bits = text ? units::parse_bandwidth(*text) : std::nullopt;
    if (!bits) {
        refuse(key, value, "is not a bandwidth", hint);
    }
    const double result = *bits;
    if (result < 1) {
        refuse(key, value, "would let no traffic through", zero_hint);
    }
    if (result > kMaxBitsPerSecond) {
        refuse(key, value, "is above 1000gbps", hint);
    }
    return result;
}

}  // namespace sbx::support
