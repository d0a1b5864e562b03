// Preset keys -> FaultPlan. Presets hold strings (or YAML scalars turned JSON): numbers
// are read from their text, exactly, so "500ms" or "1.5" connections are refused.
#include "fault_plan.hpp"

#include <sbx/plugin.hpp>

#include <cmath>
#include <sstream>
#include <vector>

#include "support/number_parse.hpp"
#include "support/preset_activation.hpp"
#include "support/preset_units.hpp"

namespace sbx::fault_proxy {
namespace {

using nlohmann::json;

// Defaults when a failure mode is listed without its key: the canonical low profile
// (1 failure per 20 requests, 500 ms of API latency; docs/semantics.md, "Canonical presets").
constexpr std::uint64_t kModeFailures = 1;
constexpr std::uint64_t kModeRequests = 20;
constexpr std::uint64_t kModeLatencyMs = 500;
// upstream_timeout alone: 1 hung connection per 20, the rate of the canonical flaky_upstream.
constexpr std::uint64_t kModeTimeouts = 1;

std::string text_of(const json &value) {
    return value.is_string() ? value.get<std::string>() : value.dump();
}

std::uint64_t whole_number(const json &preset, const char *key, std::uint64_t max,
                           const std::string &example) {
    const std::string text = text_of(preset.at(key));
    const auto value = support::parse_uint64(text, support::LeadingPlus::refused);
    if (!value || *value > max) {
        throw Error(SBX_INVALID, std::string(key) + ": '" + text +
                                     "' is not a whole number from 0 to " + std::to_string(max) +
                                     "; write " + example);
    }
    return *value;
}

std::uint64_t milliseconds(const json &preset, const char *key) {
    const std::string text = text_of(preset.at(key));
    const auto value = support::parse_double(text, support::LeadingPlus::refused);
    if (!value || *value < 0 || *value > static_cast<double>(kMaxLatencyMs)) {
        throw Error(SBX_INVALID, std::string(key) + ": '" + text +
                                     "' is not a number of milliseconds from 0 to " +
                                     std::to_string(kMaxLatencyMs) +
                                     "; write a bare number such as 200 (no unit)");
    }
    return static_cast<std::uint64_t>(std::llround(*value));
}

// CORRUPT_PAYLOAD: a flag ("1", true, yes: the configured rate; "0", false, no: none) or a
// fraction of bytes ("0.01", "1%"; "100%" for every byte, since "1" is the flag).
double corrupt_rate(const json &value, double flag_rate) {
    if (value.is_boolean()) {
        return value.get<bool>() ? flag_rate : 0.0;
    }
    std::string text = text_of(value);
    if (text == "1" || text == "true" || text == "yes") {
        return flag_rate;
    }
    if (text == "0" || text == "false" || text == "no") {
        return 0.0;
    }
    const bool percent = !text.empty() && text.back() == '%';
    if (percent) {
        text.pop_back();
    }
    if (const auto number = support::parse_double(text, support::LeadingPlus::refused)) {
        const double rate = percent ? *number / 100.0 : *number;
        if (rate >= 0 && rate <= 1) {
            return rate;
        }
    }
    throw Error(SBX_INVALID, "CORRUPT_PAYLOAD: '" + text_of(value) +
                                 "' is neither a flag nor a fraction of bytes; write \"1\" for "
                                 "the configured rate, or a fraction such as 0.01 or 1%");
}

// UPSTREAM_BANDWIDTH, UPSTREAM_SLICE_BYTES (each activates) and UPSTREAM_SLICE_DELAY_MS
// (the pause between slices: like UPSTREAM_REQUESTS, it shapes a fault, it is none).
void read_shaping(const json &preset, FaultPlan &plan) {
    if (preset.contains("UPSTREAM_BANDWIDTH")) {
        plan.active = true;
        plan.bandwidth_bits_per_s = support::bits_per_second(
            "UPSTREAM_BANDWIDTH", preset.at("UPSTREAM_BANDWIDTH"),
            "write a bandwidth of at least 1bps such as 1mbps, or UPSTREAM_TIMEOUTS for "
            "connections that never answer");
    }
    if (preset.contains("UPSTREAM_SLICE_BYTES")) {
        plan.active = true;
        const char *example = "a number of bytes of at least 1 per send, such as 7";
        plan.slice_bytes = whole_number(preset, "UPSTREAM_SLICE_BYTES", kMaxSliceBytes, example);
        if (plan.slice_bytes == 0) {
            throw Error(
                SBX_INVALID,
                std::string("UPSTREAM_SLICE_BYTES: '0' would send nothing; write ") + example);
        }
    }
    if (preset.contains("UPSTREAM_SLICE_DELAY_MS")) {
        plan.slice_delay_ms = milliseconds(preset, "UPSTREAM_SLICE_DELAY_MS");
    }
}

// Failures and timeouts share each block of UPSTREAM_REQUESTS connections.
void check_block(const FaultPlan &plan) {
    const std::uint64_t faulty = plan.failures + plan.timeouts;
    if (faulty > 0 && plan.requests == 0) {
        throw Error(SBX_INVALID, "UPSTREAM_REQUESTS: '0' leaves no connection for " +
                                     std::to_string(plan.failures) + " failure(s) and " +
                                     std::to_string(plan.timeouts) +
                                     " timeout(s); write a block size such as 20");
    }
    if (plan.failures > plan.requests) {
        throw Error(SBX_INVALID, "UPSTREAM_FAILURES: " + std::to_string(plan.failures) +
                                     " is more than " + "UPSTREAM_REQUESTS (" +
                                     std::to_string(plan.requests) +
                                     "); write at most as many failures as requests");
    }
    if (faulty > plan.requests) {
        throw Error(SBX_INVALID, "UPSTREAM_TIMEOUTS: " + std::to_string(plan.timeouts) +
                                     " with UPSTREAM_FAILURES " + std::to_string(plan.failures) +
                                     " is more than UPSTREAM_REQUESTS (" +
                                     std::to_string(plan.requests) +
                                     "); write at most UPSTREAM_REQUESTS - UPSTREAM_FAILURES "
                                     "timeouts (a connection either resets or hangs)");
    }
}

}  // namespace

FaultPlan plan_from_preset(const json &preset, double default_corrupt_rate) {
    FaultPlan plan;
    if (!preset.is_object()) {
        return plan;
    }
    const bool flaky = support::lists_failure_mode(preset, "flaky_upstream");
    const bool slow = support::lists_failure_mode(preset, "api_latency");
    const bool corrupt = support::lists_failure_mode(preset, "corrupt_payload");
    const bool hang = support::lists_failure_mode(preset, "upstream_timeout");
    if (flaky) {
        plan.failures = kModeFailures;
        plan.requests = kModeRequests;
    }
    if (hang) {
        plan.timeouts = kModeTimeouts;
        plan.requests = kModeRequests;
    }
    if (slow) {
        plan.latency_ms = kModeLatencyMs;
    }
    if (corrupt) {
        plan.corrupt_rate = default_corrupt_rate;
    }
    plan.active = flaky || slow || corrupt || hang;
    // A key set to 0 still activates the proxy: on- and off-runs then go through the same
    // path, so the comparison measures the fault, not the proxy.
    if (preset.contains("UPSTREAM_REQUESTS")) {
        plan.requests = whole_number(preset, "UPSTREAM_REQUESTS", kMaxRequests,
                                     "the block failures and timeouts are spread over, such "
                                     "as 20");
    }
    if (preset.contains("UPSTREAM_FAILURES")) {
        plan.active = true;
        plan.failures = whole_number(preset, "UPSTREAM_FAILURES", kMaxRequests,
                                     "connections reset out of every UPSTREAM_REQUESTS, such as 1");
    }
    if (preset.contains("UPSTREAM_TIMEOUTS")) {
        plan.active = true;
        plan.timeouts = whole_number(preset, "UPSTREAM_TIMEOUTS", kMaxRequests,
                                     "connections hung out of every UPSTREAM_REQUESTS, such as 1");
    }
    if (preset.contains("API_LATENCY_MS")) {
        plan.active = true;
        plan.latency_ms = milliseconds(preset, "API_LATENCY_MS");
    }
    if (preset.contains("CORRUPT_PAYLOAD")) {
        plan.active = true;
        plan.corrupt_rate = corrupt_rate(preset.at("CORRUPT_PAYLOAD"), default_corrupt_rate);
    }
    read_shaping(preset, plan);
    check_block(plan);
    return plan;
}

json describe(const FaultPlan &plan) {
    return {
        {"latency_ms", plan.latency_ms},     {"failures", plan.failures},
        {"timeouts", plan.timeouts},         {"requests", plan.requests},
        {"corrupt_rate", plan.corrupt_rate}, {"bandwidth_bits_per_s", plan.bandwidth_bits_per_s},
        {"slice_bytes", plan.slice_bytes},   {"slice_delay_ms", plan.slice_delay_ms}};
}

}  // namespace sbx::fault_proxy
