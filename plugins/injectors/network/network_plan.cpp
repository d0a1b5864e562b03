// Preset keys to a NetworkPlan. The host checks these keys already (preset_checks.cpp), but
// a plugin cannot link the host, and an injector called by another host must not trust it:
// the same rules are applied here, strictly.
#include "network_plan.hpp"

#include <sbx/plugin.hpp>
#include <sbx/units.hpp>

#include <optional>
#include <string>

#include "support/preset_activation.hpp"
#include "support/preset_units.hpp"

namespace sbx::network {
namespace {

using nlohmann::json;

using support::refuse;
using units::number_and_unit;

// Longest delay or jitter accepted: a minute already makes every connection time out.
constexpr double kMaxMilliseconds = 60000;

double milliseconds(const std::string &key, const json &value) {
    const char *hint = "write a number of milliseconds such as 200 (no unit), at most 60000";
    const auto text = support::unit_text(value);
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
    const auto text = support::unit_text(value);
    const auto parsed = text ? units::parse_fraction(*text) : std::nullopt;
    if (!parsed) {
        refuse(key, value, "is not a fraction", hint);
    }
    const double result = *parsed;
    if (result > 1.0) {
        refuse(key, value, "is more than 1 (100%)", hint);
    }
    return result;
}

double bits_per_second(const std::string &key, const json &value) {
    return support::bits_per_second(key, value,
                                    "write a bandwidth of at least 1bps, or list "
                                    "network_partition in FAILURE_MODES to cut the network");
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
    plan.partition = support::lists_failure_mode(preset, "network_partition");
    plan.active = plan.partition || support::lists_failure_mode(preset, "network");

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
