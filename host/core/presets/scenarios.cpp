// The built-in scenario presets. Each body carries its SCENARIO_NAME, so two scenarios
// never share a preset record even when their other keys agree.
#include "presets/scenarios.hpp"

#include <algorithm>

namespace sbx::presets {
namespace {

using nlohmann::json;

Preset builtin(const std::string &name, json body) {
    body["SCENARIO_NAME"] = name;
    return Preset{name, std::move(body), "built-in scenario " + name};
}

Preset normal() {
    return builtin("normal", json::object());
}
Preset concurrency_spike() {
    return builtin("concurrency_spike", {{"FAILURE_MODES", "concurrency_spike"},
                                         {"CONCURRENCY_LEVEL", "8"},
                                         {"THREAD_BURST", "32"},
                                         {"ASYNC_TASK_BURST", "128"}});
}
Preset hostile_input() {
    return builtin("hostile_input",
                   {{"FAILURE_MODES", "hostile_input"}, {"SANDBOX_STUB_STRATEGY", "hostile"}});
}
Preset schema_drift() {
    return builtin("schema_drift", {{"FAILURE_MODES", "schema_drift"},
                                    {"SANDBOX_STUB_STRATEGY", "legacy_schema"},
                                    {"SCHEMA_MISMATCHES", "5"},
                                    {"SCHEMA_CHECKS", "100"}});
}
Preset flaky_upstream() {
    return builtin("flaky_upstream", {{"FAILURE_MODES", "flaky_upstream"},
                                      {"UPSTREAM_FAILURES", "1"},
                                      {"UPSTREAM_REQUESTS", "20"},
                                      {"API_LATENCY_MS", "500"}});
}
Preset high_latency() {
    return builtin("high_latency", {{"NETWORK_LATENCY_MS", "500"}});
}
Preset resource_strain(bool throttle_io) {
    json body{{"CPU_LIMIT", "0.5"}, {"DISK_LIMIT", "512Mi"}};
    if (throttle_io) {
        body["DISK_IO_THROTTLE"] = "100Ki";
    }
    return builtin("resource_strain", std::move(body));
}
Preset chaotic_failure() {
    return builtin("chaotic_failure", {{"BROKEN_AUTH", "1"}, {"CORRUPT_PAYLOAD", "1"}});
}

}  // namespace

std::vector<Preset> default_scenarios() {
    return {normal(), concurrency_spike(), hostile_input(), schema_drift(), flaky_upstream()};
}

std::vector<Preset> all_scenarios() {
    auto all = default_scenarios();
    all.push_back(high_latency());
    all.push_back(resource_strain(false));
    all.push_back(chaotic_failure());
    return all;
}

std::vector<Preset> configured_scenarios(const config::Settings &settings, bool all) {
    if (settings.scenarios.empty()) {
        return all ? all_scenarios() : default_scenarios();
    }
    std::vector<Preset> chosen;
    for (size_t i = 0; i < settings.scenarios.size(); ++i) {
        const auto &name = settings.scenarios[i].first;
        const auto &body = settings.scenarios[i].second;
        // `{name: hostile_input}` with no preset means the built-in scenario of that name.
        if (body.empty()) {
            const auto builtins = all_scenarios();
            const auto known = std::find_if(builtins.begin(), builtins.end(),
                                            [&](const Preset &p) { return p.name == name; });
            if (known != builtins.end()) {
                chosen.push_back(*known);
                continue;
            }
        }
        json named = body;
        named["SCENARIO_NAME"] = name;
        const auto origin = i < settings.scenario_locations.size()
                                ? settings.scenario_locations[i].str()
                                : settings.source;
        chosen.push_back(make_preset(std::move(named), origin, i));
    }
    return all ? with_extra_scenarios(std::move(chosen)) : chosen;
}

std::vector<Preset> with_extra_scenarios(std::vector<Preset> chosen) {
    const auto all = all_scenarios();
    for (size_t i = default_scenarios().size(); i < all.size(); ++i) {
        const bool listed = std::any_of(chosen.begin(), chosen.end(),
                                        [&](const Preset &p) { return p.name == all[i].name; });
        if (!listed) {
            chosen.push_back(all[i]);
        }
    }
    return chosen;
}

std::vector<Preset> trajectory_stages() {
    // DISK_IO_THROTTLE is part of the stage: an executor that cannot throttle I/O ignores it.
    return {normal(), high_latency(), resource_strain(true), schema_drift(), chaotic_failure()};
}

}  // namespace sbx::presets
