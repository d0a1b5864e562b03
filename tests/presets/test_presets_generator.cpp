// Random preset generation: the golden files pin the algorithm byte for byte; the other
// tests check the rules of docs/semantics.md over many seeded presets (pools, MIN <= MAX, the
// 0.2 combination rate, the naming rule, profiles and severities).
//
// After an intended change to the algorithm, regenerate the golden files with
// SBX_UPDATE_GOLDEN=1 ./test_presets_generator and review the diff: every recorded seed
// now gives other presets.
#include <gtest/gtest.h>

#include <algorithm>

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

#include <sbx/random.hpp>
#include "presets/generator.hpp"
#include "util/errors.hpp"

namespace sbx::presets {
namespace {

using nlohmann::json;

std::string dump_all(const std::vector<json> &presets) {
    return json(presets).dump(2) + "\n";
}

void expect_golden(const std::string &file, const std::vector<json> &presets) {
    const std::string path = std::string(SBX_PRESETS_GOLDEN_DIR) + "/" + file;
    const std::string actual = dump_all(presets);
    if (const char *update = std::getenv("SBX_UPDATE_GOLDEN");
        update && std::string(update) == "1") {
        std::ofstream(path) << actual;
    }
    std::ifstream in(path);
    ASSERT_TRUE(in) << "missing golden file " << path;
    std::stringstream expected;
    expected << in.rdbuf();
    EXPECT_EQ(actual, expected.str())
        << "the generator's output for a fixed seed changed (" << path
        << "); if intended, regenerate with SBX_UPDATE_GOLDEN=1 and say so in the changelog";
}

std::vector<std::string> modes_of(const json &preset) {
    std::vector<std::string> modes;
    std::stringstream in(preset.at("FAILURE_MODES").get<std::string>());
    for (std::string mode; std::getline(in, mode, ',');) {
        modes.push_back(mode);
    }
    return modes;
}

double mbps(const json &value) {
    const std::string text = value.get<std::string>();
    EXPECT_EQ(text.substr(text.size() - 4), "mbps") << text;
    return std::stod(text.substr(0, text.size() - 4));
}

std::vector<json> random_presets(int count, uint64_t seed) {
    GenerateOptions options;
    options.count = count;
    options.seed = seed;
    return generate_presets(options);
}

TEST(SplitMix64, MatchesThePublishedSequence) {
    // The first outputs for seed 0 (as in the reference implementation and the stubs).
    SplitMix64 rng(0);
    EXPECT_EQ(rng.next(), 0xE220A8397B1DCDAFULL);
    EXPECT_EQ(rng.next(), 0x6E789E6AA1B965F4ULL);
    EXPECT_EQ(rng.next(), 0x06C45D188009454FULL);
    SplitMix64 bounded(1);
    std::set<uint64_t> seen;
    for (int i = 0; i < 200; ++i) {
        const uint64_t value = bounded.below(5);
        ASSERT_LT(value, 5u);
        seen.insert(value);
    }
    EXPECT_EQ(seen.size(), 5u);
}

TEST(Golden, RandomPresetsOfSeed42) {
    const auto presets = random_presets(12, 42);
    expect_golden("random_seed42_count12.json", presets);
    // The case exercises what it is meant to pin: a combination and the naming rule.
    bool combined = false, named = false;
    for (const auto &preset : presets) {
        combined = combined || modes_of(preset).size() >= 2;
        named = named || preset["SCENARIO_NAME"] == "high_latency_api";
    }
    EXPECT_TRUE(combined);
    EXPECT_TRUE(named);
}

TEST(Golden, ProfilePresetsOfSeed7) {
    GenerateOptions options;
    options.count = 8;
    options.seed = 7;
    options.profiles = {"high_latency", "hostile_input",  "concurrency_spike",
                        "schema_drift", "flaky_upstream", "user_misuse"};
    expect_golden("profiles_seed7_count8.json", generate_presets(options));
}

TEST(Golden, SeverityHighOfSeed5) {
    GenerateOptions options;
    options.count = 6;
    options.seed = 5;
    options.severity = Severity::high;
    expect_golden("random_seed5_count6_high.json", generate_presets(options));
}

TEST(Determinism, SameSeedSameBytesOtherSeedOtherPresets) {
    EXPECT_EQ(dump_all(random_presets(20, 1234)), dump_all(random_presets(20, 1234)));
    EXPECT_NE(dump_all(random_presets(20, 1234)), dump_all(random_presets(20, 1235)));
    // One stream for the whole list: asking for fewer gives a prefix.
    const auto many = random_presets(10, 77);
    const auto few = random_presets(3, 77);
    EXPECT_EQ(std::vector<json>(many.begin(), many.begin() + 3), few);
    EXPECT_TRUE(random_presets(0, 77).empty());
}

TEST(RandomPresets, ValuesComeFromThePools) {
    const std::map<std::string, std::set<std::string>> pools = {
        {"CPU_LIMIT", {"0.5", "1", "2", "4", "8"}},
        {"MEMORY_LIMIT", {"128Mi", "256Mi", "512Mi", "1024Mi", "2048Mi", "4096Mi"}},
        {"DISK_LIMIT", {"512Mi", "1Gi", "2Gi", "4Gi", "8Gi"}},
        {"NETWORK_LATENCY_MS", {"10", "50", "100", "200", "500"}},
        {"NETWORK_JITTER_MS", {"0", "5", "10", "20", "50"}},
        {"API_LATENCY_MS", {"50", "100", "200", "500", "1000"}},
        {"MIN_BANDWIDTH", {"1mbps", "5mbps", "10mbps", "50mbps", "100mbps"}},
        {"MAX_BANDWIDTH", {"1mbps", "5mbps", "10mbps", "50mbps", "100mbps"}},
        {"BANDWIDTH_LIMIT", {"1mbps", "5mbps", "10mbps", "50mbps", "100mbps"}},
        {"PACKET_LOSS", {"0", "0.01", "0.05", "0.1"}},
        {"PACKET_DUPLICATION", {"0", "0.01", "0.05"}},
        {"SECURITY_LEVEL", {"1", "2", "3", "4", "5"}},
        {"THREAT_INTENSITY", {"10", "30", "50", "70", "90"}},
        {"CONCURRENCY_LEVEL", {"1", "5", "10", "20", "50", "100"}},
    };
    std::map<std::string, std::set<std::string>> seen;
    for (const auto &preset : random_presets(1000, 2024)) {
        for (const auto &[key, values] : pools) {
            ASSERT_TRUE(preset.contains(key)) << key << " in " << preset.dump();
            EXPECT_EQ(values.count(preset[key].get<std::string>()), 1u)
                << key << "=" << preset[key];
            seen[key].insert(preset[key].get<std::string>());
        }
        EXPECT_LE(mbps(preset["MIN_BANDWIDTH"]), mbps(preset["BANDWIDTH_LIMIT"])) << preset.dump();
        EXPECT_LE(mbps(preset["BANDWIDTH_LIMIT"]), mbps(preset["MAX_BANDWIDTH"])) << preset.dump();
    }
    for (const auto &[key, values] : pools) {
        EXPECT_EQ(seen[key], values) << key << ": 1000 presets should use every pool value";
    }
}

TEST(RandomPresets, AboutOneInFiveCombinesTwoOrThreeFailureModes) {
    int combined = 0;
    std::map<size_t, int> sizes;
    for (const auto &preset : random_presets(1000, 31337)) {
        const auto modes = modes_of(preset);
        ++sizes[modes.size()];
        combined += modes.size() >= 2 ? 1 : 0;
        int stub_driven = 0;
        for (const auto &mode : modes) {
            stub_driven += (mode == "hostile_input" || mode == "schema_drift") ? 1 : 0;
            EXPECT_NE(mode, "user_misuse") << "user_misuse only when asked for";
        }
        EXPECT_LE(stub_driven, 1) << "one run feeds one stub strategy: " << preset.dump();
        EXPECT_EQ(std::set<std::string>(modes.begin(), modes.end()).size(), modes.size());
    }
    EXPECT_GE(combined, 150);
    EXPECT_LE(combined, 250);
    EXPECT_GT(sizes[2], 0);
    EXPECT_GT(sizes[3], 0);
    EXPECT_EQ(sizes[1] + sizes[2] + sizes[3], 1000) << "only 1, 2 or 3 modes";
}

TEST(RandomPresets, ModesThatAreProfilesBringTheirKeys) {
    GenerateOptions options;
    options.count = 400;
    options.seed = 8;
    options.severity = Severity::low;
    std::set<std::string> seen;
    for (const auto &preset : generate_presets(options)) {
        for (const auto &mode : modes_of(preset)) {
            seen.insert(mode);
            if (mode == "hostile_input") {
                EXPECT_EQ(preset["SANDBOX_STUB_STRATEGY"], "hostile");
            } else if (mode == "schema_drift") {
                EXPECT_EQ(preset["SANDBOX_STUB_STRATEGY"], "legacy_schema");
                EXPECT_EQ(preset["SCHEMA_MISMATCHES"], "5");
                EXPECT_EQ(preset["SCHEMA_CHECKS"], "100");
            } else if (mode == "flaky_upstream") {
                EXPECT_EQ(preset["UPSTREAM_FAILURES"], "1");
                EXPECT_EQ(preset["UPSTREAM_REQUESTS"], "20");
            } else if (mode == "concurrency_spike") {
                EXPECT_EQ(preset["THREAD_BURST"], "10");
                EXPECT_EQ(preset["ASYNC_TASK_BURST"], "20");
                EXPECT_EQ(preset["MAX_THREADS"], "100");
            }
        }
        const auto modes = modes_of(preset);
        const bool stub = std::count(modes.begin(), modes.end(), "hostile_input") +
                              std::count(modes.begin(), modes.end(), "schema_drift") >
                          0;
        EXPECT_EQ(preset.contains("SANDBOX_STUB_STRATEGY"), stub) << preset.dump();
    }
    EXPECT_EQ(seen,
              std::set<std::string>(random_failure_modes().begin(), random_failure_modes().end()));
}

TEST(NamingRule, HighLatencyApiBoundaries) {
    const auto preset = [](const char *latency, const char *jitter, const char *loss,
                           const char *api) {
        return json{{"NETWORK_LATENCY_MS", latency},
                    {"NETWORK_JITTER_MS", jitter},
                    {"PACKET_LOSS", loss},
                    {"API_LATENCY_MS", api}};
    };
    EXPECT_TRUE(is_high_latency_api(preset("200", "20", "0", "50")));
    EXPECT_TRUE(is_high_latency_api(preset("200", "0", "0.05", "50")));
    EXPECT_TRUE(is_high_latency_api(preset("200", "0", "5%", "50")));
    EXPECT_TRUE(is_high_latency_api(preset("10", "0", "0", "500")));
    EXPECT_FALSE(is_high_latency_api(preset("100", "50", "0.1", "200")));
    EXPECT_FALSE(is_high_latency_api(preset("500", "10", "0.01", "200")));
    EXPECT_FALSE(is_high_latency_api(preset("200", "10", "0.01", "499")));
    EXPECT_FALSE(is_high_latency_api(json::object()));
}

TEST(NamingRule, RandomPresetsAreNamedByTheRuleElseByTheirModes) {
    int named = 0;
    for (const auto &preset : random_presets(1000, 55)) {
        std::string joined;
        for (const auto &mode : modes_of(preset)) {
            joined += (joined.empty() ? "" : "+") + mode;
        }
        const std::string expected = is_high_latency_api(preset) ? "high_latency_api" : joined;
        EXPECT_EQ(preset["SCENARIO_NAME"], expected) << preset.dump();
        named += expected == "high_latency_api" ? 1 : 0;
    }
    // P = 1 - (1 - 2/5) * (1 - 2/5 * (1 - 3/5 * 1/2)) = 0.568 of random presets.
    EXPECT_GT(named, 300);
    EXPECT_LT(named, 700);
}

TEST(Profiles, EachPresetIsBuiltOnTheNextProfileWithRandomPoolsForTheRest) {
    GenerateOptions options;
    options.count = 60;
    options.seed = 11;
    options.profiles = {"malicious_data", "schema_mismatch", "user_misuse"};
    options.severity = Severity::high;
    const std::vector<std::string> expected = {"hostile_input", "schema_drift", "user_misuse"};
    std::set<std::string> cpu_limits;
    const auto presets = generate_presets(options);
    ASSERT_EQ(presets.size(), 60u);
    for (size_t i = 0; i < presets.size(); ++i) {
        const auto &preset = presets[i];
        const std::string &profile = expected[i % 3];
        EXPECT_EQ(preset["SCENARIO_NAME"], profile);
        EXPECT_EQ(preset["FAILURE_MODES"], profile);
        for (const auto &[key, value] : profile_values(profile, Severity::high)) {
            EXPECT_EQ(preset[key], value) << profile << " " << key;
        }
        cpu_limits.insert(preset["CPU_LIMIT"].get<std::string>());
    }
    EXPECT_GT(cpu_limits.size(), 1u) << "the base CPU_LIMIT=1 belongs to canonical presets only";
}

TEST(Profiles, WithoutSeverityEachPresetDrawsLowOrHigh) {
    GenerateOptions options;
    options.count = 40;
    options.seed = 12;
    options.profiles = {"flaky_upstream"};
    std::set<std::string> failures;
    for (const auto &preset : generate_presets(options)) {
        failures.insert(preset["UPSTREAM_FAILURES"].get<std::string>());
    }
    EXPECT_EQ(failures, (std::set<std::string>{"1", "5"}));
}

TEST(Canonical, OptionGivesTheCanonicalPresetsOfTheProfiles) {
    GenerateOptions options;
    options.canonical = true;
    EXPECT_EQ(generate_presets(options), generate_canonical_presets(std::nullopt));
    options.severity = Severity::low;
    EXPECT_EQ(generate_presets(options), generate_canonical_presets(Severity::low));
    options.profiles = {"schema_mismatch", "hostile_input", "schema_drift"};
    options.severity = Severity::high;
    EXPECT_EQ(generate_presets(options),
              (std::vector<json>{canonical_preset("schema_drift", Severity::high),
                                 canonical_preset("hostile_input", Severity::high)}));
    options.severity.reset();
    EXPECT_EQ(generate_presets(options).size(), 4u);
}

TEST(Combinations, OnePresetCarriesEveryProfileOfTheCombination) {
    GenerateOptions options;
    options.canonical = true;
    options.severity = Severity::high;
    options.profiles = {"high_latency+malicious_data"};
    const auto presets = generate_presets(options);
    ASSERT_EQ(presets.size(), 1u);
    const json &both = presets[0];
    EXPECT_EQ(both["SCENARIO_NAME"], "high_latency_api+hostile_input");
    const json latency = canonical_preset("high_latency_api", Severity::high);
    const json hostile = canonical_preset("hostile_input", Severity::high);
    EXPECT_EQ(both["FAILURE_MODES"], latency["FAILURE_MODES"].get<std::string>() + "," +
                                         hostile["FAILURE_MODES"].get<std::string>());
    for (const json *part : {&latency, &hostile}) {
        for (const auto &[key, value] : part->items()) {
            if (key == "SCENARIO_NAME" || key == "FAILURE_MODES" || key == "THREAT_INTENSITY") {
                continue;
            }
            EXPECT_EQ(both[key], value) << key;
        }
    }
    // A key both set: the harsher.
    const int threat = std::max(std::stoi(latency["THREAT_INTENSITY"].get<std::string>()),
                                std::stoi(hostile["THREAT_INTENSITY"].get<std::string>()));
    EXPECT_EQ(both["THREAT_INTENSITY"], std::to_string(threat));
    // Random mode: the same keys over the drawn pools, the same name.
    options.canonical = false;
    options.count = 2;
    for (const auto &preset : generate_presets(options)) {
        EXPECT_EQ(preset["SCENARIO_NAME"], "high_latency_api+hostile_input");
        EXPECT_EQ(preset["THREAT_INTENSITY"], std::to_string(threat));
        EXPECT_EQ(preset["FAILURE_MODES"], both["FAILURE_MODES"]);
    }
}

TEST(Combinations, TwoStubStrategiesOrAProfileTwiceAreRefused) {
    GenerateOptions options;
    options.profiles = {"hostile_input+schema_mismatch"};
    try {
        (void)generate_presets(options);
        FAIL() << "two stub-driven profiles";
    } catch (const InputError &e) {
        EXPECT_NE(std::string(e.what()).find("each choose the input stub strategy"),
                  std::string::npos)
            << e.what();
    }
    options.profiles = {"flaky_upstream+upstream_failure"};
    EXPECT_THROW(generate_presets(options), InputError);
}

TEST(Errors, UnknownProfileAndNegativeCount) {
    GenerateOptions options;
    options.profiles = {"slow_network"};
    EXPECT_THROW(generate_presets(options), InputError);
    options.profiles.clear();
    options.count = -1;
    EXPECT_THROW(generate_presets(options), InputError);
}

}  // namespace
}  // namespace sbx::presets
