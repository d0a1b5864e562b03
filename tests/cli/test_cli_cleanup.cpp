// purge-stale and check-resources after a host was SIGKILLed mid-run: what it left (its
// workspace, the records of its cpu_spike burners) is listed, removed, and then nothing is
// left; what a live host holds is never touched.
#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "cli_fixture.hpp"
#include "state_folder.hpp"

namespace {

using nlohmann::json;

class StaleResources : public sbx::test::CliTest {
  protected:
    void SetUp() override {
        CliTest::SetUp();
        tmp_ = dir_ + "/tmp";
        std::filesystem::create_directories(tmp_);
        write_settings(R"(
injectors: [cpu_spike]
presets: [{SCENARIO_NAME: spike, CPU_SPIKE: "1"}]
workflows:
  - name: slow
    steps: [{run: [/bin/sh, -c, "sleep 0.1"]}]
)");
    }
    // The host and the cleanup commands must agree on TMPDIR (workspaces live there).
    sbx::test::CommandResult cleanup(const std::string &command) {
        return sbx::test::run_command(
            {SBX_BINARY, "--config", settings_, "--data-dir", dir_ + "/data", command, "--json"},
            {{"TMPDIR", tmp_}}, dir_);
    }
    int start_host() {
        return sbx::test::spawn_background(
            {SBX_BINARY, "--config", settings_, "--data-dir", dir_ + "/data", "run", "--runs",
             "500", "--workers", "1"},
            {{"TMPDIR", tmp_}}, dir_, dir_ + "/host.log");
    }
    std::string tmp_;
};

TEST_F(StaleResources, AKilledHostsLeftoversAreListedThenPurged) {
    // A live host: its workspace and burners are not stale.
    const int live = start_host();
    ASSERT_GE(wait_for_runs(2, std::chrono::seconds(30)), 2);
    const auto while_alive = cleanup("check-resources");
    EXPECT_EQ(while_alive.exit_code, 0) << while_alive.out << while_alive.err;

    ASSERT_EQ(kill(live, SIGKILL), 0);
    int status = 0;
    ASSERT_EQ(waitpid(live, &status, 0), live);
    // The workspace must look older than a just-created one (10 s grace) to be stale.
    for (const auto &entry :
         std::filesystem::directory_iterator(sbx::test::state_folder_in(tmp_))) {
        std::filesystem::last_write_time(
            entry.path(), std::filesystem::file_time_type::clock::now() - std::chrono::minutes(1));
    }

    const auto listed = cleanup("check-resources");
    EXPECT_EQ(listed.exit_code, 1) << listed.out << listed.err;
    const json left = json::parse(listed.out);
    EXPECT_EQ(left["by_kind"]["workspace"], 1) << listed.out;
    EXPECT_TRUE(std::filesystem::exists(sbx::test::state_folder_in(tmp_)))
        << "check-resources removed";

    const auto purged = cleanup("purge-stale");
    EXPECT_EQ(purged.exit_code, 0) << purged.out << purged.err;
    EXPECT_EQ(json::parse(purged.out)["removed"].size(), left["left"].size());
    const auto after = cleanup("check-resources");
    EXPECT_EQ(after.exit_code, 0) << after.out;
    EXPECT_TRUE(json::parse(after.out)["left"].empty());
    EXPECT_TRUE(std::filesystem::is_empty(sbx::test::state_folder_in(tmp_)));
    std::error_code ec;
    EXPECT_TRUE(std::filesystem::is_empty(dir_ + "/data/state/cpu_spike", ec) || ec)
        << "burner records left";
}

// A TMPDIR on a filesystem that two machines share holds the other machine's workspaces
// too: their owners' pids mean nothing here, so they are not this machine's to remove. An
// owner of this machine (or a record without a machine, as older versions wrote) is judged.
TEST_F(StaleResources, AnotherMachinesWorkspaceInASharedTmpdirIsLeftAlone) {
    const auto folder = std::filesystem::path(sbx::test::state_folder_in(tmp_));
    std::filesystem::create_directories(folder);
    std::filesystem::permissions(folder, std::filesystem::perms::owner_all);
    const auto plant = [&](const std::string &name, const std::string &owner) {
        std::filesystem::create_directories(folder / name);
        std::ofstream(folder / (name + ".owner")) << owner << "\n";
    };
    plant("run-elsewhere", "999999999 1 some-other-machine");
    plant("run-dead-here", "999999999 1");
    const auto purged = cleanup("purge-stale");
    EXPECT_EQ(purged.exit_code, 0) << purged.out << purged.err;
    EXPECT_TRUE(std::filesystem::exists(folder / "run-elsewhere")) << purged.out;
    EXPECT_FALSE(std::filesystem::exists(folder / "run-dead-here")) << purged.out;
}

TEST_F(StaleResources, UnknownArgumentIsBadInput) {
    const auto result = runner({"check-resources", "--all"});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_NE(result.err.find("unknown argument '--all'"), std::string::npos) << result.err;
}

}  // namespace
