// The canonical profile table (docs/semantics.md, "Canonical presets"): every value of every
// profile at both severities, the aliases, and that every preset the generator makes passes the
// preset checks.
#include <gtest/gtest.h>

#include <map>

#include "config/preset_checks.hpp"
#include "config/profile_names.hpp"
#include "presets/canonical.hpp"
#include "presets/generator.hpp"
#include "presets/preset.hpp"
#include "util/errors.hpp"

namespace sbx::presets {
namespace {

using nlohmann::json;

// Transcribed from the table in docs/semantics.md independently of canonical.cpp.
const json &expected_table() {
    static const json table = json::parse(R"({
  "high_latency_api": {
    "low":  {"CPU_LIMIT": "1", "MEMORY_LIMIT": "512Mi", "SCENARIO_NAME": "high_latency_api",
             "FAILURE_MODES": "network,api_latency", "NETWORK_LATENCY_MS": "200",
             "NETWORK_JITTER_MS": "20", "PACKET_LOSS": "0.05", "API_LATENCY_MS": "500",
             "THREAT_INTENSITY": "30"},
    "high": {"CPU_LIMIT": "1", "MEMORY_LIMIT": "512Mi", "SCENARIO_NAME": "high_latency_api",
             "FAILURE_MODES": "network,api_latency", "NETWORK_LATENCY_MS": "500",
             "NETWORK_JITTER_MS": "50", "PACKET_LOSS": "0.1", "API_LATENCY_MS": "1000",
             "THREAT_INTENSITY": "70"}},
  "hostile_input": {
    "low":  {"CPU_LIMIT": "1", "MEMORY_LIMIT": "512Mi", "SCENARIO_NAME": "hostile_input",
             "FAILURE_MODES": "hostile_input", "SANDBOX_STUB_STRATEGY": "hostile",
             "THREAT_INTENSITY": "30"},
    "high": {"CPU_LIMIT": "1", "MEMORY_LIMIT": "512Mi", "SCENARIO_NAME": "hostile_input",
             "FAILURE_MODES": "hostile_input", "SANDBOX_STUB_STRATEGY": "hostile",
             "THREAT_INTENSITY": "50"}},
  "user_misuse": {
    "low":  {"CPU_LIMIT": "1", "MEMORY_LIMIT": "512Mi", "SCENARIO_NAME": "user_misuse",
             "FAILURE_MODES": "user_misuse", "SANDBOX_STUB_STRATEGY": "misuse",
             "THREAT_INTENSITY": "20"},
    "high": {"CPU_LIMIT": "1", "MEMORY_LIMIT": "512Mi", "SCENARIO_NAME": "user_misuse",
             "FAILURE_MODES": "user_misuse", "SANDBOX_STUB_STRATEGY": "misuse",
             "THREAT_INTENSITY": "30"}},
  "concurrency_spike": {
    "low":  {"CPU_LIMIT": "1", "MEMORY_LIMIT": "512Mi", "SCENARIO_NAME": "concurrency_spike",
             "FAILURE_MODES": "concurrency_spike", "THREAD_BURST": "10",
             "ASYNC_TASK_BURST": "20", "MAX_THREADS": "100", "CONCURRENCY_LEVEL": "20",
             "CPU_SPIKE": "1", "THREAT_INTENSITY": "30"},
    "high": {"CPU_LIMIT": "1", "MEMORY_LIMIT": "512Mi", "SCENARIO_NAME": "concurrency_spike",
             "FAILURE_MODES": "concurrency_spike", "THREAD_BURST": "50",
             "ASYNC_TASK_BURST": "100", "MAX_THREADS": "200", "CONCURRENCY_LEVEL": "100",
             "CPU_SPIKE": "1", "THREAT_INTENSITY": "50"}},
  "schema_drift": {
    "low":  {"CPU_LIMIT": "1", "MEMORY_LIMIT": "512Mi", "SCENARIO_NAME": "schema_drift",
             "FAILURE_MODES": "schema_drift", "SCHEMA_MISMATCHES": "5", "SCHEMA_CHECKS": "100",
             "SANDBOX_STUB_STRATEGY": "legacy_schema", "THREAT_INTENSITY": "20"},
    "high": {"CPU_LIMIT": "1", "MEMORY_LIMIT": "512Mi", "SCENARIO_NAME": "schema_drift",
             "FAILURE_MODES": "schema_drift", "SCHEMA_MISMATCHES": "20", "SCHEMA_CHECKS": "100",
             "SANDBOX_STUB_STRATEGY": "legacy_schema", "THREAT_INTENSITY": "40"}},
  "flaky_upstream": {
    "low":  {"CPU_LIMIT": "1", "MEMORY_LIMIT": "512Mi", "SCENARIO_NAME": "flaky_upstream",
             "FAILURE_MODES": "flaky_upstream", "UPSTREAM_FAILURES": "1",
             "UPSTREAM_REQUESTS": "20", "THREAT_INTENSITY": "20"},
    "high": {"CPU_LIMIT": "1", "MEMORY_LIMIT": "512Mi", "SCENARIO_NAME": "flaky_upstream",
             "FAILURE_MODES": "flaky_upstream", "UPSTREAM_FAILURES": "5",
             "UPSTREAM_REQUESTS": "20", "THREAT_INTENSITY": "40"}}
})");
    return table;
}

TEST(CanonicalProfiles, NamesInCanonicalOrder) {
    EXPECT_EQ(canonical_profile_names(),
              (std::vector<std::string>{"high_latency_api", "hostile_input", "user_misuse",
                                        "concurrency_spike", "schema_drift", "flaky_upstream"}));
}

TEST(CanonicalProfiles, EveryProfileAtBothSeveritiesHasExactlyTheTableValues) {
    for (const auto &name : canonical_profile_names()) {
        for (const Severity severity : {Severity::low, Severity::high}) {
            EXPECT_EQ(canonical_preset(name, severity),
                      expected_table().at(name).at(severity_name(severity)))
                << name << " " << severity_name(severity);
        }
    }
}

TEST(CanonicalProfiles, GenerateListsProfilesInOrderLowThenHigh) {
    const auto both = generate_canonical_presets(std::nullopt);
    ASSERT_EQ(both.size(), 12u);
    for (size_t i = 0; i < canonical_profile_names().size(); ++i) {
        const auto &name = canonical_profile_names()[i];
        EXPECT_EQ(both[2 * i], expected_table()[name]["low"]);
        EXPECT_EQ(both[2 * i + 1], expected_table()[name]["high"]);
    }
    const auto low = generate_canonical_presets(Severity::low);
    const auto high = generate_canonical_presets(Severity::high);
    ASSERT_EQ(low.size(), 6u);
    ASSERT_EQ(high.size(), 6u);
    for (size_t i = 0; i < 6; ++i) {
        EXPECT_EQ(low[i], both[2 * i]);
        EXPECT_EQ(high[i], both[2 * i + 1]);
    }
}

TEST(CanonicalProfiles, AliasesResolveAndUnknownNamesListTheKnownOnes) {
    EXPECT_EQ(resolve_profile_alias("high_latency"), "high_latency_api");
    EXPECT_EQ(resolve_profile_alias("malicious_data"), "hostile_input");
    EXPECT_EQ(resolve_profile_alias("schema_mismatch"), "schema_drift");
    EXPECT_EQ(resolve_profile_alias("upstream_failure"), "flaky_upstream");
    for (const auto &name : canonical_profile_names()) {
        EXPECT_EQ(resolve_profile_alias(name), name);
    }
    EXPECT_EQ(canonical_preset("malicious_data", Severity::high),
              expected_table()["hostile_input"]["high"]);
    try {
        resolve_profile_alias("hostile_inputs");
        FAIL() << "an unknown profile must throw";
    } catch (const InputError &e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("'hostile_inputs' is not known"), std::string::npos) << message;
        EXPECT_NE(message.find("did you mean 'hostile_input'?"), std::string::npos) << message;
        EXPECT_NE(message.find("high_latency_api, hostile_input, user_misuse, concurrency_spike, "
                               "schema_drift, flaky_upstream"),
                  std::string::npos)
            << message;
        EXPECT_NE(message.find("aliases: high_latency, malicious_data"), std::string::npos)
            << message;
    }
    EXPECT_THROW(canonical_preset("HOSTILE_INPUT", Severity::low), InputError);
}

TEST(CanonicalProfiles, SeverityNames) {
    EXPECT_EQ(parse_severity("low"), Severity::low);
    EXPECT_EQ(parse_severity("high"), Severity::high);
    EXPECT_EQ(parse_severity("High"), std::nullopt);
    EXPECT_EQ(parse_severity(""), std::nullopt);
}

// Every value a string, every key accepted by check_preset_value and make_preset (the
// checks of --preset-file, SANDBOX_ENV_PRESETS and inline presets).
void expect_valid(const json &preset, const std::string &what) {
    ASSERT_TRUE(preset.is_object()) << what;
    for (const auto &[key, value] : preset.items()) {
        EXPECT_TRUE(value.is_string()) << what << ": " << key;
        EXPECT_TRUE(is_known_key(key)) << what << ": " << key;
        EXPECT_NO_THROW(config::check_preset_value(key, value))
            << what << ": " << key << "=" << value;
    }
    EXPECT_NO_THROW(make_preset(preset, what, 0)) << preset.dump();
}

TEST(GeneratedPresets, AllPassThePresetChecks) {
    for (const auto &preset : generate_canonical_presets(std::nullopt)) {
        expect_valid(preset, "canonical " + preset["SCENARIO_NAME"].get<std::string>());
    }
    GenerateOptions random;
    random.count = 500;
    random.seed = 99;
    for (const auto &preset : generate_presets(random)) {
        expect_valid(preset, "random " + preset.dump());
    }
    GenerateOptions profiled;
    profiled.count = 60;
    profiled.seed = 3;
    profiled.profiles = canonical_profile_names();
    for (const auto &preset : generate_presets(profiled)) {
        expect_valid(preset, "profiled " + preset.dump());
    }
}

}  // namespace
}  // namespace sbx::presets

namespace {

// Every key a built-in plugin reads from a preset is the host's to pass on: none reaches
// the target's environment, and each is taken from the shell like the others (preset_env).
TEST(PresetKeys, ThePluginsKeysNeverReachTheTargetsEnvironment) {
    for (const char *key : {"UPSTREAM_TIMEOUTS", "UPSTREAM_BANDWIDTH", "UPSTREAM_SLICE_BYTES",
                            "UPSTREAM_SLICE_DELAY_MS", "SANDBOX_FAKER_LOCALE", "UPSTREAM_FAILURES",
                            "CORRUPT_PAYLOAD", "BROKEN_AUTH", "NETWORK_LATENCY_MS"}) {
        SCOPED_TRACE(key);
        EXPECT_TRUE(sbx::presets::is_known_key(key));
    }
    const auto preset = sbx::presets::make_preset(
        nlohmann::json{{"SCENARIO_NAME", "slow"}, {"UPSTREAM_TIMEOUTS", "1"}, {"MY_FLAG", "x"}},
        "test", 0);
    EXPECT_EQ(sbx::presets::passthrough_environment(preset),
              (std::map<std::string, std::string>{{"MY_FLAG", "x"}, {"SCENARIO_NAME", "slow"}}));
}

}  // namespace
