// The canonical profile table, transcribed from docs/semantics.md; tests pin every value.
#include "presets/canonical.hpp"

#include <algorithm>
#include <limits>

#include "config/profile_names.hpp"
#include "config/setting_values.hpp"
#include "util/errors.hpp"

namespace sbx::presets {
namespace {

struct Profile {
    std::string name;
    std::vector<std::string> failure_modes;
    // Complete per severity rather than high as a delta of low, so each row reads like the
    // table in docs/semantics.md.
    std::map<std::string, std::string> low;
    std::map<std::string, std::string> high;
};

// Rationale for the failure modes: each profile lists the mode of the same name, as the
// run-scenarios presets do; high_latency_api has no mode of its own and lists what it
// sets, network (latency, jitter, loss) and api_latency. CPU_SPIKE is "1", the flag form
// (the cpu_spike injector's configured number of burners).
const std::vector<Profile> &table() {
    static const std::vector<Profile> profiles = {
        {"high_latency_api",
         {"network", "api_latency"},
         {{"NETWORK_LATENCY_MS", "200"},
          {"NETWORK_JITTER_MS", "20"},
          {"PACKET_LOSS", "0.05"},
          {"API_LATENCY_MS", "500"},
          {"THREAT_INTENSITY", "30"}},
         {{"NETWORK_LATENCY_MS", "500"},
          {"NETWORK_JITTER_MS", "50"},
          {"PACKET_LOSS", "0.1"},
          {"API_LATENCY_MS", "1000"},
          {"THREAT_INTENSITY", "70"}}},
        {"hostile_input",
         {"hostile_input"},
         {{"SANDBOX_STUB_STRATEGY", "hostile"}, {"THREAT_INTENSITY", "30"}},
         {{"SANDBOX_STUB_STRATEGY", "hostile"}, {"THREAT_INTENSITY", "50"}}},
        {"user_misuse",
         {"user_misuse"},
         {{"SANDBOX_STUB_STRATEGY", "misuse"}, {"THREAT_INTENSITY", "20"}},
         {{"SANDBOX_STUB_STRATEGY", "misuse"}, {"THREAT_INTENSITY", "30"}}},
        {"concurrency_spike",
         {"concurrency_spike"},
         {{"THREAD_BURST", "10"},
          {"ASYNC_TASK_BURST", "20"},
          {"MAX_THREADS", "100"},
          {"CONCURRENCY_LEVEL", "20"},
          {"CPU_SPIKE", "1"},
          {"THREAT_INTENSITY", "30"}},
         {{"THREAD_BURST", "50"},
          {"ASYNC_TASK_BURST", "100"},
          {"MAX_THREADS", "200"},
          {"CONCURRENCY_LEVEL", "100"},
          {"CPU_SPIKE", "1"},
          {"THREAT_INTENSITY", "50"}}},
        {"schema_drift",
         {"schema_drift"},
         {{"SCHEMA_MISMATCHES", "5"},
          {"SCHEMA_CHECKS", "100"},
          {"SANDBOX_STUB_STRATEGY", "legacy_schema"},
          {"THREAT_INTENSITY", "20"}},
         {{"SCHEMA_MISMATCHES", "20"},
          {"SCHEMA_CHECKS", "100"},
          {"SANDBOX_STUB_STRATEGY", "legacy_schema"},
          {"THREAT_INTENSITY", "40"}}},
        {"flaky_upstream",
         {"flaky_upstream"},
         {{"UPSTREAM_FAILURES", "1"}, {"UPSTREAM_REQUESTS", "20"}, {"THREAT_INTENSITY", "20"}},
         {{"UPSTREAM_FAILURES", "5"}, {"UPSTREAM_REQUESTS", "20"}, {"THREAT_INTENSITY", "40"}}},
    };
    return profiles;
}

const Profile &find_profile(const std::string &name) {
    const std::string canonical = resolve_profile_alias(name);
    for (const auto &profile : table()) {
        if (profile.name == canonical) {
            return profile;
        }
    }
    // config::canonical_profile_names() and table() list the same names (a test checks).
    throw std::logic_error("canonical profile '" + canonical + "' has no row in the table");
}

}  // namespace

std::string severity_name(Severity severity) {
    return severity == Severity::low ? "low" : "high";
}

std::optional<Severity> parse_severity(std::string_view text) {
    if (text == "low") {
        return Severity::low;
    }
    if (text == "high") {
        return Severity::high;
    }
    return std::nullopt;
}

const std::vector<std::string> &canonical_profile_names() {
    return config::canonical_profile_names();
}

std::string resolve_profile_alias(const std::string &name) {
    if (auto canonical = config::canonical_profile_name(name)) {
        return *canonical;
    }
    throw InputError("profile '" + name + "' is not known; " + config::profile_name_hint(name));
}

const std::map<std::string, std::string> &profile_values(const std::string &profile,
                                                         Severity severity) {
    const Profile &row = find_profile(profile);
    return severity == Severity::low ? row.low : row.high;
}

const std::vector<std::string> &profile_failure_modes(const std::string &profile) {
    return find_profile(profile).failure_modes;
}

std::string failure_modes_text(const std::vector<std::string> &modes) {
    std::string text;
    for (const auto &mode : modes) {
        text += (text.empty() ? "" : ",") + mode;
    }
    return text;
}

nlohmann::json canonical_preset(const std::string &profile, Severity severity) {
    const Profile &row = find_profile(profile);
    nlohmann::json preset = {{"CPU_LIMIT", "1"}, {"MEMORY_LIMIT", "512Mi"}};
    for (const auto &[key, value] : severity == Severity::low ? row.low : row.high) {
        preset[key] = value;
    }
    preset["SCENARIO_NAME"] = row.name;
    preset["FAILURE_MODES"] = failure_modes_text(row.failure_modes);
    return preset;
}

std::vector<std::string> resolve_profile_combination(const std::string &name) {
    std::vector<std::string> parts;
    int stub_driven = 0;
    for (size_t start = 0; start <= name.size();) {
        const size_t end = std::min(name.find('+', start), name.size());
        const std::string canonical = resolve_profile_alias(name.substr(start, end - start));
        if (std::find(parts.begin(), parts.end(), canonical) != parts.end()) {
            std::string message = "profile combination '";
            message.append(name).append("' names ").append(canonical);
            throw InputError(message.append(" twice; name each profile once"));
        }
        if (canonical == "hostile_input" || canonical == "user_misuse" ||
            canonical == "schema_drift") {
            ++stub_driven;
        }
        parts.push_back(canonical);
        start = end + 1;
    }
    if (stub_driven > 1) {
        throw InputError("profile combination '" + name +
                         "' joins two profiles that each choose the input stub strategy "
                         "(hostile_input, user_misuse, schema_drift), and one run feeds one; "
                         "combine one of them with the others");
    }
    return parts;
}

std::map<std::string, std::string> combined_profile_values(const std::vector<std::string> &parts,
                                                           Severity severity) {
    std::map<std::string, std::string> values;
    for (const auto &part : parts) {
        for (const auto &[key, value] : profile_values(part, severity)) {
            const auto [kept, fresh] = values.emplace(key, value);
            if (!fresh) {
                // The keys profiles share (THREAT_INTENSITY) are whole numbers.
                constexpr int64_t kAny = std::numeric_limits<int64_t>::max();
                const auto mine = config::parse_whole_number(kept->second, -kAny, kAny);
                const auto theirs = config::parse_whole_number(value, -kAny, kAny);
                if (mine && theirs && *theirs > *mine) {
                    kept->second = value;  // the harsher of the two
                }
            }
        }
    }
    return values;
}

nlohmann::json combined_canonical_preset(const std::vector<std::string> &parts, Severity severity) {
    if (parts.size() == 1) {
        return canonical_preset(parts.front(), severity);
    }
    nlohmann::json preset = {{"CPU_LIMIT", "1"}, {"MEMORY_LIMIT", "512Mi"}};
    std::vector<std::string> modes;
    std::string name;
    for (const auto &part : parts) {
        for (const auto &mode : profile_failure_modes(part)) {
            if (std::find(modes.begin(), modes.end(), mode) == modes.end()) {
                modes.push_back(mode);
            }
        }
        name += (name.empty() ? "" : "+") + part;
    }
    for (const auto &[key, value] : combined_profile_values(parts, severity)) {
        preset[key] = value;
    }
    preset["SCENARIO_NAME"] = name;
    preset["FAILURE_MODES"] = failure_modes_text(modes);
    return preset;
}

std::vector<nlohmann::json> generate_canonical_presets(std::optional<Severity> severity_or_both) {
    std::vector<nlohmann::json> presets;
    for (const auto &name : canonical_profile_names()) {
        if (!severity_or_both || *severity_or_both == Severity::low) {
            presets.push_back(canonical_preset(name, Severity::low));
        }
        if (!severity_or_both || *severity_or_both == Severity::high) {
            presets.push_back(canonical_preset(name, Severity::high));
        }
    }
    return presets;
}

}  // namespace sbx::presets
