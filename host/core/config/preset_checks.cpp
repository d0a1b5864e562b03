// One rule per unit-bearing or numeric preset key; see SEMANTICS.md, "Units" and "Presets".
#include "config/preset_checks.hpp"

#include <charconv>
#include <cmath>
#include <functional>
#include <map>
#include <optional>

#include "util/units.hpp"

namespace sbx::config {

namespace {

using Rule = std::function<void(const std::string &text)>;

std::optional<double> as_number(const std::string &text) {
    double value = 0;
    const char *end = text.data() + text.size();
    auto [stop, error] = std::from_chars(text.data(), end, value);
    if (text.empty() || error != std::errc() || stop != end || !std::isfinite(value)) {
        return std::nullopt;
    }
    return value;
}

Rule number_rule(bool positive, bool whole, const std::string &example) {
    return [=](const std::string &text) {
        auto value = as_number(text);
        bool ok = value && (positive ? *value > 0 : *value >= 0) &&
                  (!whole || std::floor(*value) == *value);
        if (!ok) {
            std::string kind = std::string(positive ? "a positive " : "a non-negative ") +
                               (whole ? "whole number" : "number");
            throw UnitError("'" + text + "' is not " + kind, "write " + example);
        }
    };
}

const std::map<std::string, Rule> &rules() {
    static const Rule size = [](const std::string &text) { (void)parse_size_bytes(text); };
    static const Rule duration = [](const std::string &text) {
        (void)parse_duration_seconds(text);
    };
    static const Rule bandwidth = [](const std::string &text) {
        (void)parse_bandwidth_bits_per_second(text);
    };
    static const Rule fraction = [](const std::string &text) { (void)parse_fraction(text); };
    static const Rule milliseconds =
        number_rule(false, false, "a number of milliseconds such as 200 (no unit)");
    static const Rule count = number_rule(false, true, "a whole number such as 10");
    static const std::map<std::string, Rule> table = {
        {"MEMORY_LIMIT", size},
        {"DISK_LIMIT", size},
        {"TIMEOUT", duration},
        {"CPU_TIME_LIMIT", duration},
        {"CPU_LIMIT", number_rule(true, false,
                                  "a share of cores like docker --cpus, such as 0.5 (half a "
                                  "core) or 2")},
        {"PIDS_LIMIT", number_rule(true, true, "a whole number of processes such as 64")},
        {"PACKET_LOSS", fraction},
        {"PACKET_DUPLICATION", fraction},
        {"BANDWIDTH_LIMIT", bandwidth},
        {"MIN_BANDWIDTH", bandwidth},
        {"MAX_BANDWIDTH", bandwidth},
        {"NETWORK_LATENCY_MS", milliseconds},
        {"NETWORK_JITTER_MS", milliseconds},
        {"API_LATENCY_MS", milliseconds},
        {"CONCURRENCY_LEVEL", number_rule(true, true, "a whole number of copies such as 8")},
        {"THREAD_BURST", count},
        {"ASYNC_TASK_BURST", count},
        {"MAX_THREADS", count},
        {"UPSTREAM_FAILURES", count},
        {"UPSTREAM_REQUESTS", count},
        {"SCHEMA_MISMATCHES", count},
        {"SCHEMA_CHECKS", count},
    };
    return table;
}

// CPU_SPIKE is a flag or a number of burners, capped like the cpu_spike plugin's
// `burners`. Rationale: checked here, a typo is exit 2 before anything is recorded, and a
// count such as 2000000000 never reaches the plugin as that many forks.
void check_cpu_spike(const nlohmann::json &value) {
    constexpr int kMaxBurners = 64;
    if (value.is_boolean()) {
        return;
    }
    const std::string text = value.is_string() ? value.get<std::string>() : value.dump();
    if (value.is_string() && (text == "true" || text == "yes")) {
        return;
    }
    const auto count = as_number(text);
    if (!count || *count < 0 || *count > kMaxBurners || std::floor(*count) != *count) {
        throw UnitError("CPU_SPIKE: '" + text + "' is neither a flag nor a number of burners",
                        "write \"1\", true or yes for the configured number of burners, or a "
                        "whole number of burners from 0 to " +
                            std::to_string(kMaxBurners));
    }
}

}  // namespace

const std::vector<std::string> &checked_preset_keys() {
    static const std::vector<std::string> keys = [] {
        std::vector<std::string> out;
        for (const auto &[key, rule] : rules()) {
            out.push_back(key);
        }
        out.push_back("FAILURE_MODES");
        out.push_back("CPU_SPIKE");
        return out;
    }();
    return keys;
}

void check_preset_value(const std::string &key, const nlohmann::json &value) {
    if (key == "FAILURE_MODES") {
        const char *hint =
            "write a list of failure modes such as [network_partition, cpu_spike] or a "
            "comma-separated string";
        if (value.is_string()) {
            return;
        }
        if (!value.is_array()) {
            throw UnitError(key + ": " + value.dump() + " is not a list of failure modes", hint);
        }
        for (const auto &mode : value) {
            if (!mode.is_string() || mode.get<std::string>().empty()) {
                throw UnitError(key + ": " + mode.dump() + " is not the name of a failure mode",
                                hint);
            }
        }
        return;
    }
    if (key == "CPU_SPIKE") {
        check_cpu_spike(value);
        return;
    }
    auto rule = rules().find(key);
    if (rule == rules().end()) {
        return;
    }
    // Numbers are checked as written; a bool, list or object fails its rule with a message
    // that shows the value.
    const std::string text = value.is_string() ? value.get<std::string>() : value.dump();
    try {
        rule->second(text);
    } catch (const UnitError &error) {
        throw UnitError(key + ": " + error.problem(), error.hint());
    }
}

}  // namespace sbx::config
