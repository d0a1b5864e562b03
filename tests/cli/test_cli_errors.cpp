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
        if (row.empty() || row[0] == '#') {
            continue;
        }
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

// The help and the dispatch come from one command table: every command the help lists is
// one the program knows (a misspelt one is refused, before any settings are read).
TEST_F(CliErrors, HelpListsExactlyTheCommandsThatRun) {
    const auto help = runner({"--help"});
    ASSERT_EQ(help.exit_code, 0) << help.err;
    const auto listed_from = help.out.find("commands:\n");
    const auto listed_to = help.out.find("\nglobal options:");
    ASSERT_NE(listed_from, std::string::npos) << help.out;
    ASSERT_NE(listed_to, std::string::npos) << help.out;
    std::istringstream lines(help.out.substr(listed_from, listed_to - listed_from));
    std::string line;
    std::vector<std::string> names;
    while (std::getline(lines, line)) {
        if (line.rfind("  ", 0) == 0 && line[2] != ' ') {
            names.push_back(line.substr(2, line.find(' ', 2) - 2));
        }
    }
    ASSERT_GE(names.size(), 10u) << help.out;
    for (const auto &name : names) {
        // A command's own usage error (exit 2 or 1) or success, never "unknown command";
        // `--nonsense` makes every command stop at its options, so none really runs.
        const auto result = runner({name, "--nonsense-option"});
        EXPECT_EQ(result.err.find("unknown command"), std::string::npos)
            << name << ": " << result.err;
    }
    write_settings("workflows: [unclosed\n");  // not read: the command is unknown first
    const auto unknown = runner({"frobnicate"});
    EXPECT_EQ(unknown.exit_code, 2);
    EXPECT_NE(unknown.err.find("unknown command 'frobnicate'"), std::string::npos) << unknown.err;
}

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
    for (const auto &args : std::vector<std::vector<std::string>>{{"run", "--seed", "-5"},
                                                                  {"run", "--fail-under", "nan"},
                                                                  {"run", "--fail-under", "1.5"},
                                                                  {"run", "--workflow", ""},
                                                                  {"--data-dir", "", "run"}}) {
        result = sbx::test::run_command([&] {
            std::vector<std::string> argv = {SBX_BINARY, "--config", settings_};
            argv.insert(argv.end(), args.begin(), args.end());
            return argv;
        }());
        EXPECT_EQ(result.exit_code, 2) << args.back() << ": " << result.err;
        EXPECT_EQ(result.err.find("terminate"), std::string::npos) << result.err;
    }
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

TEST_F(CliErrors, SizeBeyondInt64IsRefusedNotDropped) {
    // 9000000Ti fits uint64_t but went negative as int64_t: silently no memory limit.
    const auto file = write_file("big.json", R"({"MEMORY_LIMIT": "9000000Ti"})");
    const auto result = runner({"run", "--preset-file", file});
    EXPECT_EQ(result.exit_code, 2) << result.err;
    EXPECT_NE(result.err.find("too large"), std::string::npos) << result.err;
}

TEST_F(CliErrors, PresetFileNestedTooDeepOrWithAHugeNumberNamesLineAndColumn) {
    // 100000 levels parsed, then overflowed the stack when the preset was copied.
    auto file = write_file("deep.json", std::string(100000, '[') + std::string(100000, ']'));
    auto result = runner({"run", "--preset-file", file});
    EXPECT_EQ(result.exit_code, 2) << result.err;
    EXPECT_NE(result.err.find(file + ":1:65: the preset text nests"), std::string::npos)
        << result.err;
    // A number beyond a double was an uncaught out_of_range: exit 3 without a position.
    file = write_file("huge.json", "{\"SCENARIO_NAME\": \"x\",\n \"TIMEOUT\": 1e400}");
    result = runner({"run", "--preset-file", file});
    EXPECT_EQ(result.exit_code, 2) << result.err;
    EXPECT_NE(result.err.find(file + ":2:"), std::string::npos) << result.err;
    EXPECT_FALSE(std::filesystem::exists(db_path())) << "nothing was recorded for bad input";
}

TEST_F(CliErrors, InputPathThatIsADirectoryOrEndlessIsBadInput) {
    auto result = runner({"run", "--preset-file", dir_});
    EXPECT_EQ(result.exit_code, 2) << result.err;
    EXPECT_NE(result.err.find("it is a directory"), std::string::npos) << result.err;
    // Read to the end, /dev/zero exhausted memory; inputs are capped instead.
    result = runner({"run", "--preset-file", "/dev/zero"});
    EXPECT_EQ(result.exit_code, 2) << result.err;
    EXPECT_NE(result.err.find("/dev/zero: cannot read the preset file (it holds more than"),
              std::string::npos)
        << result.err;
    result = run_command({SBX_BINARY, "--config", "/dev/zero", "plugins", "list"});
    EXPECT_EQ(result.exit_code, 2) << result.err;
    EXPECT_NE(result.err.find("/dev/zero: cannot read the settings file"), std::string::npos)
        << result.err;
}

TEST_F(CliErrors, CpuSpikeThatIsNoFlagNorBurnerCountIsRefusedBeforeAnythingRuns) {
    // The plugin refused these mid-matrix (exit 3, session recorded); 2000000000 was
    // taken as that many forks.
    for (const char *value : {"\"abc\"", "\"2000000000\"", "4294967297", "2.5"}) {
        const auto file = write_file(
            "spike.json", std::string(R"({"SCENARIO_NAME": "s", "CPU_SPIKE": )") + value + "}");
        const auto result = runner({"run", "--preset-file", file});
        EXPECT_EQ(result.exit_code, 2) << value << ": " << result.err;
        EXPECT_NE(result.err.find("CPU_SPIKE"), std::string::npos) << result.err;
    }
    EXPECT_FALSE(std::filesystem::exists(db_path())) << "nothing was recorded for bad input";
}

TEST_F(CliErrors, UpstreamFaultKeysAreCheckedBeforeAnythingRuns) {
    // The fault_proxy plugin refuses these too, but only mid-matrix (exit 3).
    for (const auto &[key, value] : std::vector<std::pair<std::string, std::string>>{
             {"UPSTREAM_TIMEOUTS", "\"1.5\""},
             {"UPSTREAM_TIMEOUTS", "\"-1\""},
             {"UPSTREAM_BANDWIDTH", "\"10MB\""},
             {"UPSTREAM_BANDWIDTH", "\"0\""},
             {"UPSTREAM_SLICE_BYTES", "\"0\""},
             {"UPSTREAM_SLICE_BYTES", "7.5"},
             {"UPSTREAM_SLICE_DELAY_MS", "\"10ms\""}}) {
        std::string preset = R"({"SCENARIO_NAME": "u", ")";
        preset += key;
        preset += "\": ";
        preset += value;
        preset += "}";
        const auto file = write_file("upstream.json", preset);
        const auto result = runner({"run", "--preset-file", file});
        EXPECT_EQ(result.exit_code, 2) << key << " " << value << ": " << result.err;
        EXPECT_NE(result.err.find(key + ": "), std::string::npos) << result.err;
        EXPECT_NE(result.err.find("write "), std::string::npos) << result.err;
    }
    const auto mode = runner(
        {"run", "--preset-file",
         write_file("mode.json", R"({"FAILURE_MODES": "upstream_timeout", "UPSTREAM_BANDWIDTH": )"
                                 R"("teleport"})")});
    EXPECT_EQ(mode.exit_code, 2);
    EXPECT_EQ(mode.err.find("is not a failure mode"), std::string::npos)
        << "upstream_timeout is a failure mode: " << mode.err;
    EXPECT_NE(mode.err.find("UPSTREAM_BANDWIDTH"), std::string::npos) << mode.err;
    EXPECT_FALSE(std::filesystem::exists(db_path())) << "nothing was recorded for bad input";
}

TEST_F(CliErrors, PresetKeyOrValueThatCannotReachTheEnvironmentIsRefused) {
    // The executor refused these mid-matrix (exit 3, session recorded).
    for (const char *body : {R"({"A=B": "x"})", R"({"": "x"})", R"({"MY_FLAG": "a\u0000b"})"}) {
        const auto file = write_file("env.json", body);
        const auto result = runner({"run", "--preset-file", file});
        EXPECT_EQ(result.exit_code, 2) << body << ": " << result.err;
    }
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
    EXPECT_NE(result.err.find("loaded executor plugins: docker, local"), std::string::npos)
        << result.err;
}

TEST_F(CliErrors, PluginConfigBreakingItsSchemaPointsAtTheYaml) {
    write_settings(
        "plugins:\n  ema:\n    alpha: high\nworkflows:\n  - name: ok\n    steps:\n"
        "      - run: [/bin/true]\n");
    const auto result = runner({"run"});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_NE(result.err.find(settings_ +
                              ":3:12: plugins.ema/alpha: expected number, got string \"high\""),
              std::string::npos)
        << result.err;
}

// A misspelt id under plugins: would leave the plugin it meant on its defaults, silently.
TEST_F(CliErrors, APluginSectionThatNamesNoPluginIsATypo) {
    write_settings(
        "plugins:\n  emma:\n    alpha: 0.5\nworkflows:\n  - name: ok\n    steps:\n"
        "      - run: [/bin/true]\n");
    const auto result = runner({"run"});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_NE(result.err.find(settings_ + ":2:3: plugins.emma configures no plugin"),
              std::string::npos)
        << result.err;
    EXPECT_NE(result.err.find("did you mean 'ema'?"), std::string::npos) << result.err;
}

// 4096.0 is how many YAML and JSON tools write a whole number; the schema's integer takes it.
TEST_F(CliErrors, AWholeFloatIsAcceptedForAnIntegerOptionAndAFractionIsNot) {
    write_settings(
        "plugins:\n  local:\n    output_bytes: 4096.0\nworkflows:\n  - name: ok\n    steps:\n"
        "      - run: [/bin/true]\n");
    auto result = runner({"run"});
    EXPECT_EQ(result.exit_code, 0) << result.err;
    write_settings(
        "plugins:\n  local:\n    output_bytes: 4096.5\nworkflows:\n  - name: ok\n    steps:\n"
        "      - run: [/bin/true]\n");
    result = runner({"run"});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_NE(result.err.find("plugins.local/output_bytes: expected integer, got number 4096.5"),
              std::string::npos)
        << result.err;
}

}  // namespace

namespace {

class PresetFailureModes : public sbx::test::CliTest {};

TEST_F(PresetFailureModes, UnknownFailureModeIsRefusedWithTheKnownOnes) {
    write_settings("workflows: [{name: w, steps: [{run: [/bin/true]}]}]\n");
    for (const std::string body : {R"([{"SCENARIO_NAME": "x", "FAILURE_MODES": ["netwrok"]}])",
                                   R"({"SCENARIO_NAME": "x", "FAILURE_MODES": "cpu, teleport"})"}) {
        const auto file = write_file("modes.json", body);
        const auto result = runner({"run", "--preset-file", file});
        EXPECT_EQ(result.exit_code, 2) << result.out;
        EXPECT_NE(result.err.find(file), std::string::npos) << result.err;
        EXPECT_NE(result.err.find("is not a failure mode"), std::string::npos) << result.err;
        EXPECT_NE(result.err.find("network_partition"), std::string::npos) << result.err;
    }
    EXPECT_NE(
        runner({"run", "--preset-file", write_file("m.json", R"({"FAILURE_MODES": "netwrok"})")})
            .err.find("did you mean 'network'?"),
        std::string::npos);
    EXPECT_FALSE(std::filesystem::exists(db_path())) << "nothing may be recorded";
}

}  // namespace
