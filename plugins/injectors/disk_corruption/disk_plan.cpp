// Reading a preset's disk faults (disk_plan.hpp).
#include "disk_plan.hpp"

#include <sbx/plugin.hpp>
#include <sbx/units.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "support/number_parse.hpp"
#include "support/preset_activation.hpp"
#include "support/probe_request.hpp"

namespace sbx::disk_corruption {
namespace {

using nlohmann::json;

constexpr const char kFullKey[] = "DISK_FULL_AFTER";
constexpr const char kDelayKey[] = "DISK_WRITE_DELAY_MS";

std::string text_of(const json &value) {
    return value.is_string() ? value.get<std::string>() : value.dump();
}

long long bytes(const json &value) {
    const auto parsed = units::parse_size(support::trimmed(text_of(value)));
    if (!parsed) {
        throw Error(SBX_INVALID, std::string(kFullKey) + ": " + value.dump() +
                                     " is not a size; write e.g. 64Ki, 1Mi or 0 (full from the "
                                     "first byte)");
    }
    return *parsed;
}

long long milliseconds(const json &value) {
    const auto parsed = units::number_and_unit(support::trimmed(text_of(value)));
    if (!parsed || !parsed->second.empty() || parsed->first != std::floor(parsed->first) ||
        parsed->first > 3600000) {
        throw Error(SBX_INVALID, std::string(kDelayKey) + ": " + value.dump() +
                                     " is not a whole number of milliseconds up to an hour; "
                                     "write e.g. 200 (no unit)");
    }
    return static_cast<long long>(parsed->first);
}

}  // namespace

DiskPlan plan_from_preset(const json &preset, const json &env_rate, const DiskDefaults &defaults,
                          long long repetition) {
    DiskPlan plan;
    plan.corrupt = support::lists_failure_mode(preset, "disk_corruption");
    if (plan.corrupt) {
        plan.rate = preset.contains(kRateKey) ? parse_rate(preset[kRateKey], kRateKey)
                    : !env_rate.is_null()     ? parse_rate(env_rate, kRateKey)
                                              : defaults.rate;
    }
    const bool full_key = preset.contains(kFullKey) && !preset[kFullKey].is_null();
    plan.full = full_key || support::lists_failure_mode(preset, "disk_full");
    if (plan.full) {
        plan.full_after = full_key ? bytes(preset[kFullKey]) : defaults.full_after;
        if (repetition == 0) {
            plan.full_after = 0;
        }
    }
    const bool delay_key = preset.contains(kDelayKey) && !preset[kDelayKey].is_null();
    plan.slow = delay_key || support::lists_failure_mode(preset, "slow_disk");
    if (plan.slow) {
        plan.write_delay_ms = delay_key ? milliseconds(preset[kDelayKey]) : defaults.write_delay_ms;
        plan.slow_writes = defaults.slow_writes;
        plan.slow = plan.write_delay_ms > 0 && plan.slow_writes > 0;  // 0 asks for nothing
    }
    return plan;
}

json disk_claims(const json &preset) {
    return support::claimed(preset, {kFullKey, kDelayKey},
                            {"disk_corruption", "disk_full", "slow_disk"});
}

double parse_rate(const json &value, const std::string &where) {
    std::optional<double> rate;
    if (value.is_number()) {
        rate = value.get<double>();
    } else if (value.is_string()) {
        rate = units::parse_fraction(support::trimmed(value.get<std::string>()));
    }
    if (!rate || !(*rate >= 0 && *rate <= 1)) {
        throw Error(SBX_INVALID, where + ": " + value.dump() +
                                     " is not a fraction between 0 and 1; write e.g. 0.01 or 1%");
    }
    return *rate;
}

std::string rate_text(double rate) {
    char buffer[32];
    for (int digits = 1; digits <= 17; ++digits) {
        std::snprintf(buffer, sizeof(buffer), "%.*g", digits, rate);
        if (support::parse_double(buffer) == rate) {
            break;
        }
    }
    return buffer;
}

}  // namespace sbx::disk_corruption
