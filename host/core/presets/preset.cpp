// Preset loading and the translation of resource keys into limits.
#include "presets/preset.hpp"

#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "config/preset_checks.hpp"
#include "util/errors.hpp"
#include "util/input_file.hpp"
#include "util/json_input.hpp"
#include "util/number_parse.hpp"
#include "util/units.hpp"

namespace sbx::presets {
namespace {

using nlohmann::json;

std::string as_text(const json &value) {
    if (value.is_string()) {
        return value.get<std::string>();
    }
    if (value.is_array()) {
        std::string joined;
        for (const auto &item : value) {
            joined += (joined.empty() ? "" : ",") + as_text(item);
        }
        return joined;
    }
    return value.dump();
}

// Rationale: a size of 2^63 bytes or more turned negative in int64_t and, being no
// positive limit, was silently dropped.
int64_t signed_size(uint64_t bytes) {
    if (bytes > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        throw UnitError("'" + std::to_string(bytes) + "' bytes is too large for a limit",
                        "write a size below 8Ei, such as 512Gi or 4Ti");
    }
    return static_cast<int64_t>(bytes);
}

// DISK_IO_THROTTLE: a size per second, as docker --device-write-bps reads it ("100Ki",
// "1mb", "100 KiB/s": binary units, "/s" optional), or a bandwidth in bits ("8mbps" is
// 1e6 bytes/s). 0, like a 0 size limit, means no throttle.
uint64_t parse_bytes_per_second(std::string text) {
    if (text.size() > 2 && text.compare(text.size() - 2, 2, "/s") == 0) {
        text.erase(text.size() - 2);
    }
    const auto space = text.find(' ');
    if (space != std::string::npos && text.find(' ', space + 1) == std::string::npos) {
        text.erase(space, 1);  // "100 KiB" as a user may write it
    }
    uint64_t bytes = 0;
    try {
        bytes = parse_size_bytes(text);
    } catch (const UnitError &size_error) {
        try {
            const double per_second = parse_bandwidth_bits_per_second(text) / 8;
            // Saturated, so the conversion stays defined; signed_size refuses it as too large.
            bytes = per_second < 1.8e19 ? static_cast<uint64_t>(per_second)
                                        : std::numeric_limits<uint64_t>::max();
        } catch (const UnitError &) {
            throw UnitError(size_error.problem() + " per second",
                            "write a size per second such as 100Ki, 10Mi or 100 KiB/s, or a "
                            "bandwidth such as 8mbps");
        }
    }
    return bytes;
}

[[noreturn]] void bad_value(const Preset &preset, const std::string &key, const std::string &why) {
    throw InputError(preset.origin + ": preset '" + preset.name + "': " + key + ": " + why);
}

// Keys and values that reach the target's environment must be representable there; the
// executor would refuse them only in the middle of the matrix, after recording began.
void check_environment(const Preset &preset) {
    for (const auto &[key, value] : passthrough_environment(preset)) {
        if (key.empty() || key.find_first_of(std::string("=\0", 2)) != std::string::npos) {
            bad_value(preset, "'" + key + "'",
                      "not an environment variable name (it is empty or holds '=' or a NUL "
                      "byte); write a name such as MY_FLAG");
        }
        if (value.find('\0') != std::string::npos) {
            bad_value(preset, key,
                      "the value holds a NUL byte, which no environment variable can carry; "
                      "remove it");
        }
    }
}

}  // namespace

bool is_known_key(const std::string &key) {
    static const std::set<std::string> known = {"SCENARIO_NAME",
                                                "CPU_LIMIT",
                                                "CPU_TIME_LIMIT",
                                                "MEMORY_LIMIT",
                                                "DISK_LIMIT",
                                                "DISK_IO_THROTTLE",
                                                "DISK_FULL_AFTER",
                                                "DISK_WRITE_DELAY_MS",
                                                "TIMEOUT",
                                                "PIDS_LIMIT",
                                                "NETWORK_LATENCY_MS",
                                                "NETWORK_JITTER_MS",
                                                "PACKET_LOSS",
                                                "PACKET_DUPLICATION",
                                                "BANDWIDTH_LIMIT",
                                                "MIN_BANDWIDTH",
                                                "MAX_BANDWIDTH",
                                                "API_LATENCY_MS",
                                                "UPSTREAM_FAILURES",
                                                "UPSTREAM_REQUESTS",
                                                "UPSTREAM_TIMEOUTS",
                                                "UPSTREAM_BANDWIDTH",
                                                "UPSTREAM_SLICE_BYTES",
                                                "UPSTREAM_SLICE_DELAY_MS",
                                                "SANDBOX_FAKER_LOCALE",
                                                "SCHEMA_MISMATCHES",
                                                "SCHEMA_CHECKS",
                                                "CONCURRENCY_LEVEL",
                                                "THREAD_BURST",
                                                "ASYNC_TASK_BURST",
                                                "MAX_THREADS",
                                                "CPU_SPIKE",
                                                "SECURITY_LEVEL",
                                                "THREAT_INTENSITY",
                                                "FAILURE_MODES",
                                                "SANDBOX_STUB_STRATEGY",
                                                "BROKEN_AUTH",
                                                "CORRUPT_PAYLOAD",
                                                "GPU_LIMIT",
                                                "OS_TYPE",
                                                "CONTAINER_IMAGE",
                                                "VM_SETTINGS"};
    return known.count(key) != 0;
}

Preset make_preset(json body, std::string origin, size_t index) {
    Preset preset{"preset" + std::to_string(index), std::move(body), std::move(origin)};
    if (!preset.body.is_object()) {
        throw InputError(preset.origin +
                         ": a preset must be a JSON object of KEY: value, e.g. "
                         "{\"SCENARIO_NAME\": \"tight\", \"MEMORY_LIMIT\": "
                         "\"64Mi\"}");
    }
    if (preset.body.contains("SCENARIO_NAME")) {
        preset.name = as_text(preset.body["SCENARIO_NAME"]);
    }
    // The same rules as presets written in sandbox_settings.yaml, checked when the preset
    // is read rather than in the middle of a matrix.
    for (const auto &[key, value] : preset.body.items()) {
        try {
            config::check_preset_value(key, value);
        } catch (const std::invalid_argument &e) {
            throw InputError(preset.origin + ": preset '" + preset.name + "': " + e.what());
        }
    }
    check_environment(preset);
    resolve_limits(preset);
    return preset;
}

std::vector<Preset> parse_presets(const std::string &text, const std::string &origin) {
    const json parsed = parse_json_input(text, origin, "the preset text",
                                         "write an object or a list of objects of KEY: value");
    std::vector<Preset> presets;
    if (parsed.is_array()) {
        for (size_t i = 0; i < parsed.size(); ++i) {
            presets.push_back(make_preset(parsed[i], origin + "[" + std::to_string(i) + "]", i));
        }
    } else {
        presets.push_back(make_preset(parsed, origin, 0));
    }
    return presets;
}

void make_names_unique(std::vector<Preset> &presets) {
    std::map<std::string, int> seen;
    for (auto &preset : presets) {
        const int count = ++seen[preset.name];
        if (count > 1) {
            // A written name may already look like "x#2": keep counting until it is free.
            std::string candidate;
            int suffix = count;
            do {
                candidate = preset.name + "#" + std::to_string(suffix++);
            } while (seen.count(candidate) != 0);
            seen[candidate] = 1;
            preset.name = candidate;
        }
    }
}

std::vector<Preset> load_preset_file(const std::string &path) {
    return parse_presets(read_input_file(path, "the preset file", "check the --preset-file path"),
                         path);
}

nlohmann::json limit_fields(const Limits &limits) {
    nlohmann::json fields = nlohmann::json::object();
    const auto set_if = [&](const char *key, auto value) {
        if (value > 0) {
            fields[key] = value;
        }
    };
    set_if("timeout_ms", limits.timeout_ms);
    set_if("cpu_time_s", limits.cpu_time_s);
    set_if("memory_bytes", limits.memory_bytes);
    set_if("disk_bytes", limits.disk_bytes);
    set_if("pids", limits.pids);
    set_if("cpu_cores", limits.cpu_cores);
    set_if("disk_write_bps", limits.disk_write_bps);
    return fields;
}

Limits resolve_limits(const Preset &preset) {
    Limits limits;
    const json &body = preset.body;
    const auto text_of = [&](const char *key) { return as_text(body[key]); };
    try {
        if (body.contains("TIMEOUT")) {
            limits.timeout_ms = timeout_milliseconds(parse_duration_seconds(text_of("TIMEOUT")));
        }
        if (body.contains("CPU_TIME_LIMIT")) {
            limits.cpu_time_s = parse_duration_seconds(text_of("CPU_TIME_LIMIT"));
        }
        if (body.contains("MEMORY_LIMIT")) {
            limits.memory_bytes = signed_size(parse_size_bytes(text_of("MEMORY_LIMIT")));
        }
        if (body.contains("DISK_LIMIT")) {
            limits.disk_bytes = signed_size(parse_size_bytes(text_of("DISK_LIMIT")));
        }
    } catch (const std::invalid_argument &e) {
        bad_value(preset, "a limit", e.what());
    }
    if (body.contains("PIDS_LIMIT")) {
        const auto text = text_of("PIDS_LIMIT");
        const auto pids = util::parse_int64(text);
        if (!pids || *pids < 1) {
            bad_value(preset, "PIDS_LIMIT",
                      "'" + text + "' is not a positive whole number of processes");
        }
        limits.pids = *pids;
    }
    if (body.contains("CPU_LIMIT")) {
        const std::string text = text_of("CPU_LIMIT");
        const auto cores = util::parse_double(text);
        if (!cores || !(*cores > 0)) {
            bad_value(preset, "CPU_LIMIT",
                      "'" + text + "' is not a positive share of cores like 0.5 or 2");
        }
        limits.cpu_cores = *cores;
    }
    if (body.contains("DISK_IO_THROTTLE")) {
        try {
            limits.disk_write_bps =
                signed_size(parse_bytes_per_second(text_of("DISK_IO_THROTTLE")));
        } catch (const std::invalid_argument &e) {
            bad_value(preset, "DISK_IO_THROTTLE", e.what());
        }
    }
    for (const char *key : {"PACKET_LOSS", "PACKET_DUPLICATION"}) {
        if (body.contains(key)) {
            try {
                parse_fraction(text_of(key));
            } catch (const std::invalid_argument &e) {
                bad_value(preset, key, e.what());
            }
        }
    }
    return limits;
}

std::map<std::string, std::string> passthrough_environment(const Preset &preset) {
    std::map<std::string, std::string> environment;
    for (const auto &[key, value] : preset.body.items()) {
        if (!is_known_key(key) || key == "SCENARIO_NAME") {
            environment[key] = as_text(value);
        }
    }
    return environment;
}

}  // namespace sbx::presets
