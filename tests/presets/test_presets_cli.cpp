// `sandbox-runner presets generate` end to end: byte-identical output across invocations,
// the golden file, --out, bad options (exit 2 naming the option), and a generated file
// that `run --preset-file` accepts.
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_fixture.hpp"

namespace {

using nlohmann::json;

class PresetsCommand : public sbx::test::CliTest {
  protected:
    void SetUp() override {
        CliTest::SetUp();
        // No plugin_dirs: the binary finds the plugins built beside it.
        write_settings(R"(
workflows:
  - name: ok
    steps:
      - run: [/bin/true]
)");
    }
    std::string read(const std::string &path) {
        std::ifstream in(path);
        std::stringstream text;
        text << in.rdbuf();
        return text.str();
    }
};

TEST_F(PresetsCommand, SameSeedGivesTheSameBytesInSeparateInvocations) {
    const auto first = runner({"presets", "generate", "--seed", "42", "--count", "12"});
    const auto second = runner({"presets", "generate", "--count", "12", "--seed", "42"});
    ASSERT_EQ(first.exit_code, 0) << first.err;
    ASSERT_EQ(second.exit_code, 0) << second.err;
    EXPECT_EQ(first.out, second.out);
    // The library's golden file: the CLI prints exactly the generator's output.
    EXPECT_EQ(first.out, read(std::string(SBX_PRESETS_GOLDEN_DIR) + "/random_seed42_count12.json"));
    const auto other = runner({"presets", "generate", "--seed", "43", "--count", "12"});
    ASSERT_EQ(other.exit_code, 0) << other.err;
    EXPECT_NE(first.out, other.out);
}

TEST_F(PresetsCommand, PrintsAnIndentedJsonArrayWithATrailingNewline) {
    const auto result = runner({"presets", "generate", "--seed", "1"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    ASSERT_FALSE(result.out.empty());
    EXPECT_EQ(result.out.back(), '\n');
    const json presets = json::parse(result.out);
    ASSERT_TRUE(presets.is_array());
    EXPECT_EQ(presets.size(), 3u) << "the default count";
    EXPECT_EQ(result.out, presets.dump(2) + "\n");
}

TEST_F(PresetsCommand, ProfilesSeverityAndCanonical) {
    auto result = runner({"presets", "generate", "--profiles", "malicious_data",
                          "concurrency_spike", "--severity", "high", "--seed", "3"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    json presets = json::parse(result.out);
    ASSERT_EQ(presets.size(), 2u) << "one preset per profile without --count";
    EXPECT_EQ(presets[0]["SCENARIO_NAME"], "hostile_input");
    EXPECT_EQ(presets[0]["THREAT_INTENSITY"], "50");
    EXPECT_EQ(presets[1]["SCENARIO_NAME"], "concurrency_spike");
    EXPECT_EQ(presets[1]["THREAD_BURST"], "50");

    result = runner({"presets", "generate", "--canonical"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(json::parse(result.out).size(), 12u);
    result = runner({"presets", "generate", "--canonical", "--severity", "low", "--profiles",
                     "schema_mismatch,flaky_upstream"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    presets = json::parse(result.out);
    ASSERT_EQ(presets.size(), 2u);
    EXPECT_EQ(presets[0]["SCENARIO_NAME"], "schema_drift");
    EXPECT_EQ(presets[0]["SCHEMA_MISMATCHES"], "5");
    EXPECT_EQ(presets[1]["SCENARIO_NAME"], "flaky_upstream");

    // Two profiles in one preset.
    result = runner({"presets", "generate", "--canonical", "--severity", "low", "--profiles",
                     "high_latency_api+flaky_upstream"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    presets = json::parse(result.out);
    ASSERT_EQ(presets.size(), 1u);
    EXPECT_EQ(presets[0]["SCENARIO_NAME"], "high_latency_api+flaky_upstream");
    EXPECT_EQ(presets[0]["UPSTREAM_FAILURES"], "1");
    EXPECT_TRUE(presets[0].contains("NETWORK_LATENCY_MS")) << presets[0];
    result = runner({"presets", "generate", "--profiles", "hostile_input+user_misuse"});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_NE(result.err.find("each choose the input stub strategy"), std::string::npos)
        << result.err;
}

TEST_F(PresetsCommand, WithoutASeedItLogsTheSeedItChose) {
    const auto result = runner({"presets", "generate", "--count", "1"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.err.find("pass --seed"), std::string::npos) << result.err;
    EXPECT_EQ(json::parse(result.out).size(), 1u);
}

TEST_F(PresetsCommand, OutWritesTheFileAndPrintsNothing) {
    const std::string path = dir_ + "/nested/presets.json";
    const auto written = runner({"presets", "generate", "--seed", "9", "--out", path});
    ASSERT_EQ(written.exit_code, 0) << written.err;
    EXPECT_TRUE(written.out.empty()) << written.out;
    const auto printed = runner({"presets", "generate", "--seed", "9"});
    EXPECT_EQ(read(path), printed.out);
    for (const auto &entry : std::filesystem::directory_iterator(dir_ + "/nested")) {
        EXPECT_EQ(entry.path().filename(), "presets.json") << "no temporary file is left";
    }
}

TEST_F(PresetsCommand, AGeneratedFileIsAcceptedByRun) {
    const std::string path = dir_ + "/generated.json";
    auto result = runner({"presets", "generate", "--seed", "42", "--count", "6", "--out", path});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    result = runner({"run", "--preset-file", path, "--runs", "1", "--seed", "1", "--json"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(json::parse(result.out)["cells"].size(), 6u);
    // Canonical presets too, except user_misuse: no `misuse` stub plugin exists yet.
    const std::string canonical = dir_ + "/canonical.json";
    result = runner({"presets", "generate", "--canonical", "--out", canonical, "--profiles",
                     "high_latency_api", "hostile_input", "concurrency_spike", "schema_drift",
                     "flaky_upstream"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    result = runner({"run", "--preset-file", canonical, "--runs", "1", "--seed", "1", "--json"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(json::parse(result.out)["cells"].size(), 10u);
}

TEST_F(PresetsCommand, BadOptionsExitWith2NamingTheOption) {
    struct Case {
        std::vector<std::string> args;
        std::string expected;  // a part of stderr
    };
    const std::string directory = dir_;
    const std::vector<Case> cases = {
        {{"--count", "0"}, "--count '0' is not a whole number from 1 to 100000"},
        {{"--count", "-3"}, "--count '-3'"},
        {{"--count", "abc"}, "--count 'abc'"},
        {{"--count", "1", "--count", "2"}, "--count"},
        {{"--seed", "-5"}, "--seed '-5' is not a whole number"},
        {{"--seed", "18446744073709551616"}, "--seed '18446744073709551616'"},
        {{"--severity", "medium"}, "--severity 'medium' is not a severity; write --severity low"},
        {{"--profiles", "slow_network"}, "--profiles: profile 'slow_network' is not known"},
        {{"--profiles", "hostile_inpt"}, "did you mean 'hostile_input'?"},
        {{"--profiles", ","}, "--profiles names no profile"},
        {{"--profiles"}, "profiles"},
        {{"--canonical", "--count", "3"}, "--count does not apply with --canonical"},
        {{"--canonical", "--seed", "3"}, "--seed does not apply with --canonical"},
        {{"--out", directory}, "--out '" + directory + "' is a directory"},
        {{"--out", ""}, "--out needs a file name"},
        {{"--cout", "3"}, "cout"},
        {{"--can"}, "can"},  // no prefix guessing
        {{"extra"}, "unexpected argument 'extra'"},
        {{"--seed", "1", "extra", "--count", "2"}, "unexpected argument 'extra'"},
    };
    for (const auto &c : cases) {
        std::vector<std::string> args = {"presets", "generate"};
        args.insert(args.end(), c.args.begin(), c.args.end());
        const auto result = runner(args);
        EXPECT_EQ(result.exit_code, 2) << c.expected << ": " << result.err;
        EXPECT_NE(result.err.find(c.expected), std::string::npos)
            << "expected '" << c.expected << "' in: " << result.err;
        EXPECT_TRUE(result.out.empty()) << result.out;
    }
    auto result = runner({"presets"});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_NE(result.err.find("presets: missing subcommand"), std::string::npos) << result.err;
    result = runner({"presets", "generat"});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_NE(result.err.find("unknown subcommand 'generat'"), std::string::npos) << result.err;
}

}  // namespace
