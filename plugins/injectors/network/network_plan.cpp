// Preset keys to a NetworkPlan. The host checks these keys already (preset_checks.cpp), but
// a plugin cannot link the host, and an injector called by another host must not trust it:
// the same rules are applied here, strictly.
#include "network_plan.hpp"

#include <sbx/plugin.hpp>

#include <charconv>
#include <cmath>
#include <optional>
#include <sstream>
#include <utility>

#include "preset_activation.hpp"

namespace sbx::network {
namespace {

using nlohmann::json;

// Longest delay or jitter accepted: a minute already makes every connection time out.
constexpr double kMaxMilliseconds = 60000;
// Largest bandwidth cap accepted (1 Tbit/s); tc takes 64-bit rates.
constexpr double kMaxBitsPerSecond = 1e12;

[[noreturn]] void refuse(const std::string &key, const json &value, const std::string &problem,
                         const std::string &hint) {
    const std::string shown = value.is_string() ? value.get<std::string>() : value.dump();
    throw Error(SBX_INVALID, key + ": '" + shown + "' " + problem + "; " + hint);
}

// "12.5" or "12" followed by a unit; nullopt for any other shape (signs, exponents, spaces).
std::optional<std::pair<double, std::string>> number_and_unit(const std::string &text) {
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
std::optional<std::string> text_of(const json &value) {
    if (value.is_string()) {
        return value.get<std::string>();
    }
    if (value.is_number()) {
        return value.dump();
    }
    return std::nullopt;
}

double milliseconds(const std::string &key, const json &value) {
    const char *hint = "write a number of milliseconds such as 200 (no unit), at most 60000";
    const auto text = text_of(value);
    const auto parsed = text ? number_and_unit(*text) : std::nullopt;
    if (!parsed || !parsed->second.empty()) {
        refuse(key, value, "is not a number of milliseconds", hint);
    }
    if (parsed->first > kMaxMilliseconds) {
        refuse(key, value, "is longer than a minute", hint);
    }
    return parsed->first;
}

double fraction(const std::string &key, const json &value) {
    const char *hint = "write a fraction between 0 and 1 such as 0.05, or a percentage such as 5%";
    const auto text = text_of(value);
    auto parsed = text ? number_and_unit(*text) : std::nullopt;
    if (!parsed || (!parsed->second.empty() && parsed->second != "%")) {
        refuse(key, value, "is not a fraction", hint);
    }
    const double result = parsed->second == "%" ? parsed->first / 100.0 : parsed->first;
    if (result > 1.0) {
        refuse(key, value, "is more than 1 (100%)", hint);
    }
    return result;
}

double bits_per_second(const std::string &key, const json &value) {
    const char *hint =
        "write a bandwidth such as 10mbps, 512kbps or 1gbps (bits per second, decimal)";
    const auto text = text_of(value);
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
        refuse(key, value, "would let no traffic through",
               "write a bandwidth of at least 1bps, or list network_partition in FAILURE_MODES "
               "to cut the network");
    }
    if (result > kMaxBitsPerSecond) {
        refuse(key, value, "is above 1000gbps", hint);
    }
    return result;
}

// The value of `key` when the preset sets it (a JSON null reads as unset).
const json *find_set(const json &preset, const char *key) {
    const auto found = preset.find(key);
    return found == preset.end() || found->is_null() ? nullptr : &*found;
}

}  // namespace

NetworkPlan plan_from_preset(const json &preset) {
    if (!preset.is_object()) {
        throw Error(SBX_INVALID, "preset must be a JSON object, got " + preset.dump());
    }
    NetworkPlan plan;
    plan.partition = injectors::lists_failure_mode(preset, "network_partition");
    plan.active = plan.partition || injectors::lists_failure_mode(preset, "network");

    const auto read = [&](const char *key, auto parse, double &into) {
        if (const json *value = find_set(preset, key)) {
            into = parse(key, *value);
            plan.active = true;
        }
    };
    read("NETWORK_LATENCY_MS", milliseconds, plan.latency_ms);
    read("NETWORK_JITTER_MS", milliseconds, plan.jitter_ms);
    read("PACKET_LOSS", fraction, plan.loss);
    read("PACKET_DUPLICATION", fraction, plan.duplication);
    // The cap: the preset's limit, else the most it allows, else the only bound it gives.
    // MIN_BANDWIDTH is a floor a token bucket never goes below on an idle link.
    double minimum = 0;
    double maximum = 0;
    double limit = 0;
    read("MIN_BANDWIDTH", bits_per_second, minimum);
    read("MAX_BANDWIDTH", bits_per_second, maximum);
    read("BANDWIDTH_LIMIT", bits_per_second, limit);
    if (minimum > 0 && maximum > 0 && minimum > maximum) {
        throw Error(SBX_INVALID,
                    "MIN_BANDWIDTH is above MAX_BANDWIDTH; write MIN_BANDWIDTH <= "
                    "MAX_BANDWIDTH");
    }
    plan.rate_bits_per_s = limit > 0 ? limit : maximum > 0 ? maximum : minimum;
    return plan;
}

}  // namespace sbx::network
