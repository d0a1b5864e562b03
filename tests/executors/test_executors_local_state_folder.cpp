// Where the local executor makes a workspace for a spec that names none and a
// configuration without workspace_root: the per-user folder the host uses too
// ($TMPDIR/sandbox-runner-<uid> here), and a refusal saying what to do when that folder is
// not the caller's own.
#include <cstdlib>

#include "command.hpp"
#include "local_executor_fixture.hpp"
#include "state_folder.hpp"

namespace sbx::executors_test {
namespace {

namespace fs = std::filesystem;

// TMPDIR pointed at a scratch folder for one test, then put back.
class StateFolderTest : public LocalExecutorTest {
  protected:
    void SetUp() override {
        const char *before = std::getenv("TMPDIR");
        had_tmpdir_ = before != nullptr;
        tmpdir_before_ = had_tmpdir_ ? before : "";
        scratch_ = sbx::test::make_temp_dir("sbx-state-folder-");
        ::setenv("TMPDIR", scratch_.c_str(), 1);
    }
    void TearDown() override {
        if (had_tmpdir_) {
            ::setenv("TMPDIR", tmpdir_before_.c_str(), 1);
        } else {
            ::unsetenv("TMPDIR");
        }
        fs::remove_all(scratch_);
    }
    std::string scratch_;
    bool had_tmpdir_ = false;
    std::string tmpdir_before_;
};

TEST_F(StateFolderTest, AFreshWorkspaceLandsInThePerUserFolder) {
    const json result = run({{"argv", {"pwd"}}});
    ASSERT_EQ(result["status"], "OK") << result.dump(2);
    const std::string folder = sbx::test::state_folder_in(scratch_);
    EXPECT_EQ(result["stdout"].get<std::string>().rfind(folder + "/run-", 0), 0U) << result.dump(2);
    EXPECT_EQ(fs::status(folder).permissions(), fs::perms::owner_all);
    EXPECT_TRUE(fs::is_empty(folder)) << "the workspace outlived the run";
}

TEST_F(StateFolderTest, ARefusedPerUserFolderFailsTheRunSayingWhatToDo) {
    const std::string folder = sbx::test::state_folder_in(scratch_);
    fs::create_directory_symlink(scratch_, folder);
    try {
        (void)local_plugin()->create(json::object())->run(json{{"argv", {"true"}}}.dump());
        ADD_FAILURE() << "a run used the symlinked folder " << folder;
    } catch (const plugins::PluginCallError &e) {
        EXPECT_EQ(e.status(), SBX_INVALID);
        EXPECT_NE(std::string(e.what()).find(folder + " is a symbolic link"), std::string::npos)
            << e.what();
        EXPECT_NE(std::string(e.what()).find("set TMPDIR to a folder of your own"),
                  std::string::npos)
            << e.what();
    }
}

}  // namespace
}  // namespace sbx::executors_test
