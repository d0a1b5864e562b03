// Bad input through the real binary: every malformed settings file, preset and argument
// gives exit code 2 and a message that says where and what to write instead.
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli_fixture.hpp"

namespace {

using sbx::test::run_command;

struct BadFile {
    std::string file;
    std::string line;
    std::string column;
};

std::vector<BadFile> bad_files() {
    std::vector<BadFile> files;
    std::ifstream table(std::string(SBX_BAD_CONFIG_DIR) + "/expected_errors.tsv");
    for (std::string row; std::getline(table, row);) {
        if (row.empty() || row[0] == '#')
            continue;
        std::istringstream fields(row);
        BadFile bad;
        std::getline(fields, bad.file, '\t');
        std::getline(fields, bad.line, '\t');
        std::getline(fields, bad.column, '\t');
        files.push_back(bad);
    }
    return files;
}

TEST(BadSettingsFiles, EachExitsWith2NamingLineAndColumn) {
    const auto files = bad_files();
    ASSERT_GE(files.size(), 10u) << "the fixture table is missing";
    for (const auto &bad : files) {
        const std::string path = std::string(SBX_BAD_CONFIG_DIR) + "/" + bad.file;
        const auto result = run_command({SBX_BINARY, "--config", path, "plugins", "list"});
        EXPECT_EQ(result.exit_code, 2) << bad.file << ": " << result.err;
        const std::string where = path + ":" + bad.line + ":" + bad.column + ":";
        EXPECT_NE(result.err.find(where), std::string::npos)
            << bad.file << " should report " << where << ", got: " << result.err;
    }
}

class CliErrors : public sbx::test::CliTest {
  protected:
    void SetUp() override {
        CliTest::SetUp();
        write_settings(R"(
workflows:
  - name: ok
    steps:
      - run: [/bin/true]
)");
    }
};

TEST_F(CliErrors, UnknownCommandAndBadArguments) {
    auto result = runner({"frobnicate"});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_NE(result.err.find("unknown command 'frobnicate'"), std::string::npos) << result.err;
    result = runner({"run", "--runs", "abc"});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_NE(result.err.find("runs"), std::string::npos) << result.err;
    result = runner({"run", "--runs", "0"});
    EXPECT_EQ(result.exit_code, 2);
    result = runner({"run", "--workflow", "nope"});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_NE(result.err.find("defined workflows: ok"), std::string::npos) << result.err;
    result = runner({"--log-level", "chatty", "plugins", "list"});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_NE(result.err.find("--log-level"), std::string::npos) << result.err;
    result = runner({"plugins", "inspect", "nope"});
    EXPECT_EQ(result.exit_code, 2);
}

TEST_F(CliErrors, MalformedPresetFileNamesLineAndColumn) {
    const auto file = write_file("bad.json", "[\n  {\"SCENARIO_NAME\": \"x\",,}\n]\n");
    const auto result = runner({"run", "--preset-file", file});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_NE(result.err.find(file + ":2:"), std::string::npos) << result.err;
}

TEST_F(CliErrors, PresetWithABadUnitIsRefusedBeforeAnythingRuns) {
    const auto file =
        write_file("bad.json", R"([{"SCENARIO_NAME": "big", "MEMORY_LIMIT": "512XB"}])");
    const auto result = runner({"run", "--preset-file", file});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_NE(result.err.find("512XB"), std::string::npos) << result.err;
    EXPECT_NE(result.err.find("Mi"), std::string::npos) << "says what to write: " << result.err;
    EXPECT_FALSE(std::filesystem::exists(db_path())) << "nothing was recorded for bad input";
}

TEST_F(CliErrors, UnknownExecutorNamesItsLineAndTheLoadedOnes) {
    write_settings(
        "executor: dockr\nworkflows:\n  - name: ok\n    steps:\n      - run: [/bin/true]\n");
    const auto result = runner({"run"});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_NE(result.err.find(settings_ + ":1:11: executor 'dockr' is not a loaded plugin"),
              std::string::npos)
        << result.err;
    EXPECT_NE(result.err.find("loaded executor plugins: local"), std::string::npos) << result.err;
}

TEST_F(CliErrors, PluginConfigBreakingItsSchemaPointsAtTheYaml) {
    write_settings(
        "plugins:\n  ema:\n    alpha: high\nworkflows:\n  - name: ok\n    steps:\n"
        "      - run: [/bin/true]\n");
    const auto result = runner({"run"});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_NE(result.err.find(settings_ + ":3:12: plugins.ema/alpha"), std::string::npos)
        << result.err;
}

}  // namespace
