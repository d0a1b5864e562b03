// One rule per unit-bearing or numeric preset key; see docs/configuration.md, "Units", and
// docs/semantics.md, "Presets".
#include "config/preset_checks.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <optional>

#include "config/suggest.hpp"
#include "util/json_input.hpp"
#include "util/number_parse.hpp"
#include "util/units.hpp"

namespace sbx::config {

namespace {

using Rule = std::function<void(const std::string &text)>;

// A number as the plugins read the same keys: no leading '+'.
std::optional<double> as_number(const std::string &text) {
    return util::parse_double(text, util::LeadingPlus::refused);
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
    // The fault proxy paces to it: a bandwidth that lets nothing through is no bandwidth.
    static const Rule positive_bandwidth = [](const std::string &text) {
        const double bits = parse_bandwidth_bits_per_second(text);
        if (bits < 1) {
            throw UnitError("'" + text + "' would let no traffic through",
                            "write a bandwidth of at least 1bps such as 1mbps, or "
                            "UPSTREAM_TIMEOUTS for connections that never answer");
        }
    };
    static const std::map<std::string, Rule> table = {
        {"MEMORY_LIMIT", size},
        {"DISK_LIMIT", size},
        {"DISK_FULL_AFTER", size},
        {"DISK_WRITE_DELAY_MS",
         number_rule(false, true, "a whole number of milliseconds such as 200 (no unit)")},
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
        {"UPSTREAM_TIMEOUTS", count},
        {"UPSTREAM_REQUESTS", count},
        {"UPSTREAM_BANDWIDTH", positive_bandwidth},
        {"UPSTREAM_SLICE_BYTES",
         number_rule(true, true, "a whole number of bytes per send such as 7")},
        {"UPSTREAM_SLICE_DELAY_MS", milliseconds},
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
    const std::string text = value.is_string() ? value.get<std::string>() : json_text(value);
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

const std::vector<std::string> &known_failure_modes() {
    // The failure-mode table of docs/semantics.md and the random generator: a mode no injector or
    // stub knows would silently do nothing, so it is refused like a misspelt key.
    static const std::vector<std::string> modes = {
        "network",     "network_partition", "api_latency",   "flaky_upstream", "upstream_timeout",
        "disk",        "disk_corruption",   "cpu",           "cpu_spike",      "memory",
        "timeout",     "concurrency_spike", "hostile_input", "user_misuse",    "schema_drift",
        "broken_auth", "corrupt_payload",   "disk_full",     "slow_disk"};
    return modes;
}

void check_preset_value(const std::string &key, const nlohmann::json &value) {
    if (key == "FAILURE_MODES") {
        const char *hint =
            "write a list of failure modes such as [network_partition, cpu_spike] or a "
            "comma-separated string";
        std::vector<std::string> modes;
        if (value.is_string()) {
            const std::string text = value.get<std::string>();
            size_t start = 0;
            while (start <= text.size()) {
                const size_t end = std::min(text.find(',', start), text.size());
                std::string mode = text.substr(start, end - start);
                mode.erase(0, mode.find_first_not_of(' '));
                mode.erase(mode.find_last_not_of(' ') + 1);
                if (!mode.empty()) {
                    modes.push_back(mode);
                }
                start = end + 1;
            }
        } else if (value.is_array()) {
            for (const auto &mode : value) {
                if (!mode.is_string() || mode.get<std::string>().empty()) {
                    throw UnitError(
                        key + ": " + json_text(mode) + " is not the name of a failure mode", hint);
                }
                modes.push_back(mode.get<std::string>());
            }
        } else {
            throw UnitError(key + ": " + json_text(value) + " is not a list of failure modes",
                            hint);
        }
        for (const auto &mode : modes) {
            const auto &known = known_failure_modes();
            if (std::find(known.begin(), known.end(), mode) == known.end()) {
                std::string what = key;
                what.append(": '").append(mode).append("' is not a failure mode");
                throw UnitError(what,
                                did_you_mean(mode, known) + "the failure modes are " + join(known));
            }
        }
        return;
    }
    if (key == "CPU_SPIKE") {
        check_cpu_spike(value);
        return;
    }
    if (key == "VM_SETTINGS") {
        // Its fields are the VM executor's to check (docs/configuration.md); here only that
        // it is an object, so a typo'd scalar fails now rather than at the first run.
        const nlohmann::json object =
            value.is_string() ? nlohmann::json::parse(value.get<std::string>(), nullptr, false)
                              : value;
        if (!object.is_object()) {
            throw UnitError(key + ": " + json_text(value) + " is not an object",
                            "write e.g. VM_SETTINGS: {memory: 512M, timeout: 120} (keys: memory, "
                            "cpus, timeout, kernel, initrd, image, <os>_image)");
        }
        return;
    }
    auto rule = rules().find(key);
    if (rule == rules().end()) {
        return;
    }
    // Numbers are checked as written; a bool, list or object fails its rule with a message
    // that shows the value.
    const std::string text = value.is_string() ? value.get<std::string>() : json_text(value);
    try {
        rule->second(text);
    } catch (const UnitError &error) {
        throw UnitError(key + ": " + error.problem(), error.hint());
    }
}

}  // namespace sbx::config
