// `presets generate`'s options checked: profiles split on commas, one preset per profile by
// default, numbers from digits only, and the refusals that name the option.
#include <gtest/gtest.h>

#include <filesystem>

#include "presets/generate_request.hpp"
#include "util/errors.hpp"

namespace sbx::presets {
namespace {

std::string refusal(const GenerateWords &words) {
    try {
        (void)check_generate_words(words);
    } catch (const InputError &e) {
        return e.what();
    }
    return "";
}

TEST(GenerateRequest, CommasSeparateProfilesAndEachGetsAPreset) {
    GenerateWords words;
    words.profiles = std::vector<std::string>{"hostile_input,user_misuse", "schema_drift"};
    const auto request = check_generate_words(words);
    EXPECT_EQ(request.options.profiles,
              (std::vector<std::string>{"hostile_input", "user_misuse", "schema_drift"}));
    EXPECT_EQ(request.options.count, 3);
    EXPECT_FALSE(request.seed_given);
    EXPECT_EQ(request.out, "");
}

TEST(GenerateRequest, CountAndSeedAreReadFromDigitsOnly) {
    GenerateWords words;
    words.count = "7";
    words.seed = "18446744073709551615";
    const auto request = check_generate_words(words);
    EXPECT_EQ(request.options.count, 7);
    EXPECT_EQ(request.options.seed, 18446744073709551615ULL);
    EXPECT_TRUE(request.seed_given);
    words.seed = "-5";
    EXPECT_EQ(refusal(words),
              "presets generate: --seed '-5' is not a whole number from 0 to "
              "18446744073709551615; write e.g. --seed 42");
}

TEST(GenerateRequest, CountOutsideItsRangeIsRefused) {
    GenerateWords words;
    words.count = "0";
    EXPECT_EQ(refusal(words),
              "presets generate: --count '0' is not a whole number from 1 to 100000; write e.g. "
              "--count 5");
    words.count = "100001";
    EXPECT_NE(refusal(words), "");
    words.count = "+3";
    EXPECT_NE(refusal(words), "");
}

TEST(GenerateRequest, CanonicalRefusesCountAndSeed) {
    GenerateWords words;
    words.canonical = true;
    words.count = "2";
    EXPECT_EQ(refusal(words),
              "presets generate: --count does not apply with --canonical (one preset per "
              "profile and severity); leave out --count, or --canonical for random presets");
    words.count.reset();
    words.seed = "1";
    EXPECT_NE(refusal(words).find("--seed does not apply with --canonical"), std::string::npos);
}

TEST(GenerateRequest, UnknownProfileSeverityAndEmptyProfilesAreRefused) {
    GenerateWords words;
    words.profiles = std::vector<std::string>{","};
    EXPECT_EQ(refusal(words),
              "presets generate: --profiles names no profile; write e.g. --profiles hostile_input");
    words.profiles = std::vector<std::string>{"no_such_profile"};
    EXPECT_EQ(refusal(words).rfind("presets generate: --profiles: ", 0), 0U);
    words.profiles.reset();
    words.severity = "medium";
    EXPECT_EQ(refusal(words),
              "presets generate: --severity 'medium' is not a severity; write --severity low or "
              "--severity high, or leave it out");
    words.severity = "high";
    EXPECT_EQ(check_generate_words(words).options.severity, Severity::high);
}

TEST(GenerateRequest, OutMustNameAFile) {
    GenerateWords words;
    words.out = "";
    EXPECT_EQ(refusal(words),
              "presets generate: --out needs a file name; write e.g. --out presets.json");
    const auto dir = std::filesystem::temp_directory_path();
    words.out = dir.string();
    EXPECT_EQ(refusal(words), "presets generate: --out '" + dir.string() +
                                  "' is a directory; give a file path, e.g. --out " +
                                  (dir / "presets.json").string());
    words.out = (dir / "presets.json").string();
    EXPECT_EQ(check_generate_words(words).out, (dir / "presets.json").string());
}

}  // namespace
}  // namespace sbx::presets
