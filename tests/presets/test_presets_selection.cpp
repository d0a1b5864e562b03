// Preset selection: --preset-file, then SANDBOX_ENV_PRESETS, then inline presets, then
// generated ones (SANDBOX_GENERATE_PRESETS, SANDBOX_PRESET_MODE); bad values name the
// variable; rotation over files. Environment variables are set in-process and read, as the
// CLI reads them, by config::apply_environment.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>

#include "config/load_settings.hpp"
#include "presets/canonical.hpp"
#include "presets/generator.hpp"
#include "presets/selection.hpp"
#include "util/errors.hpp"

namespace sbx::presets {
namespace {

using nlohmann::json;

const char *const kVariables[] = {"SANDBOX_ENV_PRESETS", "SANDBOX_GENERATE_PRESETS",
                                  "SANDBOX_PRESET_MODE", "SANDBOX_FAIL_ON_MISSING_SCENARIOS"};

class Selection : public ::testing::Test {
  protected:
    void SetUp() override {
        for (const char *name : kVariables) {
            unsetenv(name);
        }
        std::string pattern =
            (std::filesystem::temp_directory_path() / "sbx-presets-XXXXXX").string();
        ASSERT_NE(mkdtemp(pattern.data()), nullptr);
        dir_ = pattern;
        settings_ = config::load_settings_text(
            "presets:\n  - {SCENARIO_NAME: inline_one}\n  - {SCENARIO_NAME: inline_two}\n",
            "inline.yaml");
    }
    void TearDown() override {
        for (const char *name : kVariables) {
            unsetenv(name);
        }
        std::filesystem::remove_all(dir_);
    }
    std::string write(const std::string &name, const std::string &text) {
        std::string path = dir_ + "/" + name;
        std::ofstream(path) << text;
        return path;
    }
    static std::vector<std::string> names(const std::vector<Preset> &presets) {
        std::vector<std::string> out;
        out.reserve(presets.size());
        for (const auto &preset : presets) {
            out.push_back(preset.name);
        }
        return out;
    }
    // choose_presets with the inputs' settings (or the defaults) after the environment.
    static std::vector<Preset> choose(const SelectionInputs &inputs) {
        config::Settings settings =
            inputs.settings != nullptr ? *inputs.settings : config::Settings{};
        config::apply_environment(settings);
        SelectionInputs with_environment = inputs;
        with_environment.settings = &settings;
        return choose_presets(with_environment);
    }
    // The message of the InputError `inputs` throw, or "" (and a failure) when none.
    static std::string error_of(const SelectionInputs &inputs) {
        try {
            choose(inputs);
        } catch (const InputError &e) {
            return e.what();
        }
        ADD_FAILURE() << "expected an InputError";
        return "";
    }

    std::string dir_;
    config::Settings settings_;
};

TEST_F(Selection, PresetFilesComeFirstAllPresetsInFileOrder) {
    setenv("SANDBOX_ENV_PRESETS", R"({"SCENARIO_NAME": "from_env"})", 1);
    SelectionInputs inputs;
    inputs.settings = &settings_;
    inputs.preset_files = {write("a.json", R"([{"SCENARIO_NAME": "a1"}, {"SCENARIO_NAME": "a2"}])"),
                           write("b.json", R"({"SCENARIO_NAME": "b1"})")};
    const auto chosen = choose(inputs);
    EXPECT_EQ(names(chosen), (std::vector<std::string>{"a1", "a2", "b1"}));
    EXPECT_EQ(chosen[1].origin, dir_ + "/a.json[1]");
}

TEST_F(Selection, ThenTheEnvironmentThenInlineThenGenerated) {
    SelectionInputs inputs;
    inputs.settings = &settings_;
    setenv("SANDBOX_ENV_PRESETS", R"([{"SCENARIO_NAME": "e1"}, {"SCENARIO_NAME": "e2"}])", 1);
    EXPECT_EQ(names(choose(inputs)), (std::vector<std::string>{"e1", "e2"}));
    setenv("SANDBOX_ENV_PRESETS", "", 1);  // empty counts as unset
    EXPECT_EQ(names(choose(inputs)), (std::vector<std::string>{"inline_one", "inline_two"}));
    EXPECT_EQ(choose(inputs)[0].origin, "inline.yaml:2:5");

    inputs.settings = nullptr;
    inputs.preset_count = 4;
    inputs.seed = 42;
    const auto generated = choose(inputs);
    GenerateOptions options;
    options.count = 4;
    options.seed = 42;
    const auto expected = generate_presets(options);
    ASSERT_EQ(generated.size(), 4u);
    for (size_t i = 0; i < 4; ++i) {
        EXPECT_EQ(generated[i].body, expected[i]);
        // Names are SCENARIO_NAME, numbered from the second of a name on ("x#2").
        const std::string name = expected[i]["SCENARIO_NAME"];
        EXPECT_EQ(generated[i].name.substr(0, name.size()), name);
        EXPECT_TRUE(generated[i].name.size() == name.size() ||
                    generated[i].name[name.size()] == '#')
            << generated[i].name;
    }
    EXPECT_EQ(generated[1].name, "high_latency_api#2");
    config::Settings empty;
    inputs.settings = &empty;
    EXPECT_EQ(choose(inputs).size(), 4u) << "no inline presets: generated";
}

TEST_F(Selection, GenerationSwitchAndCanonicalMode) {
    SelectionInputs inputs;
    setenv("SANDBOX_PRESET_MODE", "canonical", 1);
    const auto canonical = choose(inputs);
    const auto both = generate_canonical_presets(std::nullopt);  // low, then high, per profile
    ASSERT_EQ(canonical.size(), 2 * canonical_profile_names().size());
    ASSERT_EQ(canonical.size(), both.size());
    for (size_t i = 0; i < both.size(); ++i) {
        EXPECT_EQ(canonical[i].body, both[i]);
    }
    setenv("SANDBOX_GENERATE_PRESETS", "0", 1);  // wins over the mode
    const auto normal = choose(inputs);
    ASSERT_EQ(normal.size(), 1u);
    EXPECT_EQ(normal[0].body, (json{{"SCENARIO_NAME", "normal"}}));
    setenv("SANDBOX_GENERATE_PRESETS", "TRUE", 1);
    setenv("SANDBOX_PRESET_MODE", "random", 1);
    inputs.preset_count = 2;
    EXPECT_EQ(choose(inputs).size(), 2u);
}

TEST_F(Selection, InvalidVariablesNameTheVariableAndWhatIsAllowed) {
    SelectionInputs inputs;
    inputs.settings = &settings_;
    setenv("SANDBOX_PRESET_MODE", "canon", 1);
    auto message = error_of(inputs);
    EXPECT_NE(message.find("SANDBOX_PRESET_MODE='canon'"), std::string::npos) << message;
    EXPECT_NE(message.find("canonical"), std::string::npos) << message;
    EXPECT_NE(message.find("random"), std::string::npos) << message;
    unsetenv("SANDBOX_PRESET_MODE");

    setenv("SANDBOX_GENERATE_PRESETS", "no", 1);
    message = error_of(inputs);  // checked although the inline presets win
    EXPECT_NE(message.find("SANDBOX_GENERATE_PRESETS='no'"), std::string::npos) << message;
    EXPECT_NE(message.find("1 or true, or 0 or false"), std::string::npos) << message;
    unsetenv("SANDBOX_GENERATE_PRESETS");

    setenv("SANDBOX_ENV_PRESETS", "{\"SCENARIO_NAME\": ", 1);
    message = error_of(inputs);
    EXPECT_EQ(message.rfind("SANDBOX_ENV_PRESETS:1:", 0), 0u) << message;
    setenv("SANDBOX_ENV_PRESETS", R"({"MEMORY_LIMIT": "512XB"})", 1);
    message = error_of(inputs);
    EXPECT_NE(message.find("SANDBOX_ENV_PRESETS"), std::string::npos) << message;
    EXPECT_NE(message.find("MEMORY_LIMIT"), std::string::npos) << message;
    setenv("SANDBOX_ENV_PRESETS", "[]", 1);
    message = error_of(inputs);
    EXPECT_NE(message.find("SANDBOX_ENV_PRESETS='[]': holds no presets"), std::string::npos)
        << message;
    unsetenv("SANDBOX_ENV_PRESETS");

    const auto fail_on_missing = [] {
        config::Settings settings;
        config::apply_environment(settings);
        return settings.fail_on_missing_scenarios;
    };
    setenv("SANDBOX_FAIL_ON_MISSING_SCENARIOS", "yes", 1);
    EXPECT_THROW(fail_on_missing(), InputError);
    setenv("SANDBOX_FAIL_ON_MISSING_SCENARIOS", "1", 1);
    EXPECT_TRUE(fail_on_missing());
    unsetenv("SANDBOX_FAIL_ON_MISSING_SCENARIOS");
    EXPECT_FALSE(fail_on_missing());
}

TEST_F(Selection, EveryPresetIsValidated) {
    SelectionInputs inputs;
    inputs.preset_files = {write("bad.json", R"([{"SCENARIO_NAME": "ok"}, {"CPU_LIMIT": "0"}])")};
    auto message = error_of(inputs);
    EXPECT_NE(message.find(dir_ + "/bad.json[1]"), std::string::npos) << message;
    EXPECT_NE(message.find("CPU_LIMIT"), std::string::npos) << message;
    inputs.preset_files = {write("empty.json", "[]")};
    message = error_of(inputs);
    EXPECT_NE(message.find("holds no presets"), std::string::npos) << message;
    inputs.preset_files.clear();
    inputs.preset_count = 0;
    message = error_of(inputs);
    EXPECT_NE(message.find("at least 1"), std::string::npos) << message;
}

TEST_F(Selection, RotationTakesFileIModNThenWalksEachFile) {
    const auto per_file = load_preset_files(
        {write("one.json", R"({"SCENARIO_NAME": "one"})"),
         write("two.json", R"([{"SCENARIO_NAME": "two_a"}, {"SCENARIO_NAME": "two_b"}])"),
         write("three.json", R"({"SCENARIO_NAME": "three"})")});
    std::vector<std::string> order;
    for (size_t run = 0; run < 7; ++run) {
        order.push_back(rotated(per_file, run).name);
    }
    EXPECT_EQ(order,
              (std::vector<std::string>{"one", "two_a", "three", "one", "two_b", "three", "one"}));
    EXPECT_THROW(rotated({}, 0), std::invalid_argument);
}

TEST_F(Selection, NamedPresetIsTheSettingsOneElseACanonicalProfileAtLowSeverity) {
    const Preset inline_two = named_preset(settings_, "inline_two", "explore: --preset");
    EXPECT_EQ(inline_two.name, "inline_two");
    EXPECT_EQ(inline_two.body, json({{"SCENARIO_NAME", "inline_two"}}));
    EXPECT_NE(inline_two.origin.find("inline.yaml"), std::string::npos) << inline_two.origin;

    const Preset aliased = named_preset(settings_, "malicious_data", "explore: --preset");
    EXPECT_EQ(aliased.name, "hostile_input");
    EXPECT_EQ(aliased.body, canonical_preset("hostile_input", Severity::low));
    EXPECT_EQ(aliased.origin, "the canonical hostile_input preset");
}

TEST_F(Selection, NamedPresetRefusesANameThatIsNeither) {
    try {
        named_preset(settings_, "nonesuch", "explore: --preset");
        ADD_FAILURE() << "expected an InputError";
    } catch (const InputError &e) {
        EXPECT_EQ(std::string(e.what()).rfind("explore: --preset nonesuch: neither a preset of "
                                              "the settings nor profile 'nonesuch' is not known",
                                              0),
                  0u)
            << e.what();
    }
}

}  // namespace
}  // namespace sbx::presets

namespace {

TEST(PresetNames, RepeatedNamesGetANumberAndTheBodyKeepsItsName) {
    std::vector<sbx::presets::Preset> presets;
    for (const char *name : {"high_latency_api", "calm", "high_latency_api", "high_latency_api#2",
                             "high_latency_api"}) {
        presets.push_back({name, {{"SCENARIO_NAME", name}}, "test"});
    }
    sbx::presets::make_names_unique(presets);
    std::vector<std::string> names;
    names.reserve(presets.size());
    for (const auto &preset : presets) {
        names.push_back(preset.name);
    }
    EXPECT_EQ(names, (std::vector<std::string>{"high_latency_api", "calm", "high_latency_api#2",
                                               "high_latency_api#2#2", "high_latency_api#3"}));
    EXPECT_EQ(presets[2].body["SCENARIO_NAME"], "high_latency_api");
}

}  // namespace
