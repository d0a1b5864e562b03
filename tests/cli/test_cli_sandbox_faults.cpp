// A failure must be the program's, never the sandbox's: a run whose executor says the sandbox
// failed (`sandbox_fault: true`) is run again from the start, up to sandbox_fault_reruns
// times, through the real binary, a real third-party executor .so and a real metrics.db.
#include <filesystem>
#include <fstream>
#include <string>

#include "cli_fixture.hpp"

namespace {

class SandboxFaults : public sbx::test::CliTest {
  protected:
    void SetUp() override {
        CliTest::SetUp();
        plugin_dir_ = dir_ + "/plugins";
        std::filesystem::create_directories(plugin_dir_);
        const std::string exports =
            std::string("-Wl,--version-script=") + SBX_SDK_INCLUDE + "/../cmake/sbx_plugin.map";
        const auto build = sbx::test::run_command(
            {SBX_CXX, "-std=c++17", "-shared", "-fPIC", "-fvisibility=hidden", "-Wall", "-Werror",
             "-I", SBX_SDK_INCLUDE, exports, "-Wl,-z,defs", SBX_FAULTY_SANDBOX, "-o",
             plugin_dir_ + "/faulty_sandbox.so"});
        ASSERT_EQ(build.exit_code, 0) << build.err;
    }
    // One run under one preset, through an executor whose sandbox fails `faults` times first.
    sbx::test::CommandResult run_with(int faults, const std::string &more_settings = "") {
        write_settings(more_settings + R"(
executor: faulty_sandbox
plugins: {faulty_sandbox: {faults: )" +
                       std::to_string(faults) + ", counter: " + counter() + R"(}}
presets: [{SCENARIO_NAME: normal}]
workflows:
  - name: t
    steps: [{run: [/bin/true], expect: {exit_code: 0}}]
)");
        return sbx::test::run_command(
            {SBX_BINARY, "--config", settings_, "--data-dir", dir_ + "/data", "--plugin-dir",
             plugin_dir_, "run", "--runs", "1", "--workers", "1"},
            {}, dir_);
    }
    std::string counter() const { return dir_ + "/calls"; }
    int calls() const {
        int count = 0;
        std::ifstream(counter()) >> count;
        return count;
    }
    std::string plugin_dir_;
};

TEST_F(SandboxFaults, ARunTheSandboxFailedIsRunAgainAndPasses) {
    const auto result = run_with(2);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(calls(), 3) << "two faults, then the run";
    EXPECT_EQ(query("SELECT count(*), sum(passed) FROM runs"),
              (std::vector<std::vector<std::string>>{{"1", "1"}}));
    EXPECT_EQ(
        query("SELECT value FROM metrics WHERE name = 'sandbox_reruns' AND run_id IS NOT NULL"),
        (std::vector<std::vector<std::string>>{{"2.0"}}))
        << "the reruns are the run's metric";
    EXPECT_EQ(query("SELECT value FROM cleanup_counters WHERE name = 'cleanup_failures'"),
              (std::vector<std::vector<std::string>>{{"2.0"}}))
        << "what the discarded tries cleaned up is kept";
    EXPECT_NE(result.err.find("the sandbox failed (faulty_sandbox: the engine did not answer "
                              "(call 1)); running it again (1 of 2)"),
              std::string::npos)
        << result.err;
    EXPECT_EQ(result.err.find("not the program's"), std::string::npos) << result.err;
}

TEST_F(SandboxFaults, ASandboxThatKeepsFailingIsRecordedAndBlamedOnTheSandbox) {
    const auto result = run_with(10, "sandbox_fault_reruns: 1\n");
    EXPECT_EQ(calls(), 2) << "the run and its one rerun";
    EXPECT_EQ(query("SELECT count(*), sum(passed) FROM runs"),
              (std::vector<std::vector<std::string>>{{"1", "0"}}))
        << result.err;
    const auto steps = query("SELECT json_extract(result, '$.sandbox_fault') FROM steps");
    EXPECT_EQ(steps, (std::vector<std::vector<std::string>>{{"1"}}))
        << "the last try's result is kept as the executor gave it";
    EXPECT_NE(result.err.find("the sandbox failed again after 1 rerun(s) (faulty_sandbox: the "
                              "engine did not answer (call 2)); the run is recorded as an error, "
                              "not as a verdict on the program"),
              std::string::npos)
        << result.err;
}

TEST_F(SandboxFaults, NoRerunsWhenSetToZero) {
    run_with(1, "sandbox_fault_reruns: 0\n");
    EXPECT_EQ(calls(), 1) << "no rerun";
    EXPECT_EQ(query("SELECT count(*) FROM metrics WHERE name = 'sandbox_reruns'"),
              (std::vector<std::vector<std::string>>{{"0"}}));
}

TEST_F(SandboxFaults, AnOutOfRangeSettingIsBadInputNamingItsLine) {
    const auto result = run_with(0, "sandbox_fault_reruns: 11\n");
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_NE(result.err.find("settings.yaml:1:"), std::string::npos) << result.err;
    EXPECT_NE(result.err.find("sandbox_fault_reruns must be a whole number from 0 to 10"),
              std::string::npos)
        << result.err;
    EXPECT_EQ(calls(), 0);
}

}  // namespace
