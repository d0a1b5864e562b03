// Keyword profiles: the built-in map of docs/semantics.md, word-wise matching of paths, YAML
// overrides, the "no match: all profiles" rule, and add_missing_canonical both ways.
#include <gtest/gtest.h>

#include "presets/canonical.hpp"
#include "presets/keyword_profiles.hpp"
#include "util/errors.hpp"

namespace sbx::presets {
namespace {

using nlohmann::json;
using Names = std::vector<std::string>;

const std::map<std::string, Names> kNoOverrides;

TEST(KeywordProfiles, BuiltInMapIsTheTableOfSemantics) {
    const Names &all = canonical_profile_names();
    const std::map<std::string, Names> expected = {
        {"api", {"high_latency_api"}},
        {"network", {"high_latency_api"}},
        {"cache", {"high_latency_api"}},
        {"parser", {"hostile_input", "user_misuse"}},
        {"input", {"hostile_input"}},
        {"concurrency", {"concurrency_spike"}},
        {"thread", {"concurrency_spike"}},
        {"database", {"high_latency_api", "concurrency_spike", "schema_drift"}},
        {"auth", {"user_misuse", "hostile_input"}},
        {"schema", {"schema_drift"}},
        {"legacy", {"schema_drift"}},
        {"flaky", {"flaky_upstream"}},
        {"upstream", {"flaky_upstream"}},
        {"util", all},
        {"utils", all},
        {"common", all},
        {"misc", all},
        {"shared", all},
    };
    EXPECT_EQ(builtin_keyword_profiles(), expected);
    for (const auto &[keyword, profiles] : expected) {
        // Each keyword alone, as a path, gives its profiles in canonical order.
        Names ordered;
        for (const auto &name : all) {
            if (std::find(profiles.begin(), profiles.end(), name) != profiles.end()) {
                ordered.push_back(name);
            }
        }
        EXPECT_EQ(profiles_for_path("src/" + keyword + "/main.cpp", kNoOverrides), ordered)
            << keyword;
    }
}

TEST(KeywordProfiles, PathsSplitIntoWordsAtNonAlphanumericsAndCamelCase) {
    EXPECT_EQ(path_words("src/DatabasePool.cpp"), (Names{"src", "database", "pool", "cpp"}));
    EXPECT_EQ(path_words("HTTPServer/api-v2_client"),
              (Names{"http", "server", "api", "v2", "client"}));
    EXPECT_EQ(path_words("lib/parseJSON.py"), (Names{"lib", "parse", "json", "py"}));
    EXPECT_EQ(path_words("utils2//x"), (Names{"utils2", "x"}));
    EXPECT_EQ(path_words(""), Names{});
}

TEST(KeywordProfiles, WholeWordsCaseInsensitivelyUnionInCanonicalOrder) {
    EXPECT_EQ(profiles_for_path("services/Auth/Parser.cpp", kNoOverrides),
              (Names{"hostile_input", "user_misuse"}));
    EXPECT_EQ(profiles_for_path("bin/flaky_upstream_cache", kNoOverrides),
              (Names{"high_latency_api", "flaky_upstream"}));
    EXPECT_EQ(profiles_for_path("src/ThreadPool.cpp", kNoOverrides), (Names{"concurrency_spike"}));
    EXPECT_EQ(profiles_for_path("bin/legacy-database", kNoOverrides),
              (Names{"high_latency_api", "concurrency_spike", "schema_drift"}));
    // Substrings are not words: "capital" holds "api", "author" holds "auth".
    EXPECT_EQ(profiles_for_path("src/capital/author.cpp", kNoOverrides), canonical_profile_names());
}

TEST(KeywordProfiles, NoMatchGivesEveryCanonicalProfile) {
    EXPECT_EQ(profiles_for_path("bin/kvtool", kNoOverrides), canonical_profile_names());
    EXPECT_EQ(profiles_for_path("", kNoOverrides), canonical_profile_names());
    EXPECT_EQ(profiles_for_path("src/misc/x", kNoOverrides), canonical_profile_names());
}

TEST(KeywordProfiles, YamlEntriesExtendAndOverride) {
    const std::map<std::string, Names> overrides = {
        {"Database", {"schema_mismatch"}},  // overrides the built-in (case-insensitively)
        {"billing", {"upstream_failure", "high_latency"}},  // a new keyword, aliases allowed
        {"cache", {}},                                      // removes the keyword
    };
    EXPECT_EQ(profiles_for_path("src/database.cpp", overrides), (Names{"schema_drift"}));
    EXPECT_EQ(profiles_for_path("src/BillingClient.cpp", overrides),
              (Names{"high_latency_api", "flaky_upstream"}));
    EXPECT_EQ(profiles_for_path("src/cache.cpp", overrides), canonical_profile_names());
    EXPECT_EQ(profiles_for_path("src/api/cache.cpp", overrides), (Names{"high_latency_api"}));
    EXPECT_EQ(profiles_for_path("src/input.cpp", overrides), (Names{"hostile_input"}))
        << "built-in keywords not overridden stay";
    EXPECT_THROW(profiles_for_path("src/x.cpp", {{"x", {"nope"}}}), InputError);
}

json named(const std::string &name) {
    return json{{"SCENARIO_NAME", name}, {"MEMORY_LIMIT", "64Mi"}};
}

TEST(ProfilesCoveredBy, NameAndPlusSeparatedPartsAliasesResolved) {
    EXPECT_EQ(profiles_covered_by(named("hostile_input")), (Names{"hostile_input"}));
    EXPECT_EQ(profiles_covered_by(named("memory+upstream_failure+high_latency")),
              (Names{"high_latency_api", "flaky_upstream"}));
    EXPECT_EQ(profiles_covered_by(named("normal")), Names{});
    EXPECT_EQ(profiles_covered_by(json{{"MEMORY_LIMIT", "1Gi"}}), Names{});
    EXPECT_EQ(profiles_covered_by(json{{"SCENARIO_NAME", 5}}), Names{});
}

TEST(AddMissingCanonical, AppendsTheLowPresetOfEachUncoveredProfile) {
    const std::vector<json> custom = {named("hostile_input"), named("high_latency"),
                                      named("memory+concurrency_spike"), named("tight")};
    const auto completed = add_missing_canonical(custom, canonical_profile_names(), false);
    ASSERT_EQ(completed.size(), 7u);
    for (size_t i = 0; i < custom.size(); ++i) {
        EXPECT_EQ(completed[i], custom[i]);
    }
    EXPECT_EQ(completed[4], canonical_preset("user_misuse", Severity::low));
    EXPECT_EQ(completed[5], canonical_preset("schema_drift", Severity::low));
    EXPECT_EQ(completed[6], canonical_preset("flaky_upstream", Severity::low));
    // Only wanted profiles are added; aliases count.
    const auto some = add_missing_canonical({named("normal")}, {"upstream_failure"}, false);
    ASSERT_EQ(some.size(), 2u);
    EXPECT_EQ(some[1], canonical_preset("flaky_upstream", Severity::low));
    // Nothing missing: unchanged, even when failing on missing profiles.
    const auto all = generate_canonical_presets(Severity::high);
    EXPECT_EQ(add_missing_canonical(all, canonical_profile_names(), true), all);
}

TEST(AddMissingCanonical, FailOnMissingNamesTheMissingProfiles) {
    try {
        add_missing_canonical({named("hostile_input")},
                              {"flaky_upstream", "hostile_input", "user_misuse"}, true);
        FAIL() << "missing profiles must throw with fail_on_missing";
    } catch (const InputError &e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("SANDBOX_FAIL_ON_MISSING_SCENARIOS=1"), std::string::npos);
        EXPECT_NE(message.find("user_misuse, flaky_upstream"), std::string::npos) << message;
        EXPECT_EQ(message.find("hostile_input"), std::string::npos) << message;
    }
}

}  // namespace
TEST(KeywordMatches, OnlyWhatTheKeywordsName) {
    EXPECT_EQ(keyword_matches_for_path("services/api/main.cpp", kNoOverrides),
              profiles_for_path("services/api/main.cpp", kNoOverrides));
    EXPECT_TRUE(keyword_matches_for_path("bin/kvtool", kNoOverrides).empty())
        << "no keyword: no emphasis (profiles_for_path gives every profile)";
    EXPECT_EQ(profiles_for_path("bin/kvtool", kNoOverrides), canonical_profile_names());
}

}  // namespace sbx::presets
