// What a run leaves behind: no process (not even a setsid'ed, double-forked grandchild) and
// no workspace, unless the spec keeps it or brought its own.
#include "local_executor_fixture.hpp"

namespace sbx::executors_test {
namespace {

namespace fs = std::filesystem;

std::string read_text(const fs::path &path) {
    std::ifstream in(path);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// `filesystem: host` keeps the host's /proc, where the grandchild can read its host PID.
TEST_F(LocalExecutorTest, DoubleForkedSetsidGrandchildDoesNotSurvive) {
    const json result = run({{"argv", {helper(), "daemonize", "grandchild.pid"}},
                             {"keep_workspace", true},
                             {"filesystem", "host"}});
    ASSERT_EQ(result["status"], "OK") << result.dump(2);
    const fs::path workspace = result["workspace"].get<std::string>();
    const std::string recorded = read_text(workspace / "grandchild.pid");
    fs::remove_all(workspace);

    ASSERT_FALSE(recorded.empty()) << "the grandchild never wrote its pid";
    const long pid = std::stol(recorded);
    ASSERT_GT(pid, 1);
    errno = 0;
    EXPECT_EQ(::kill(static_cast<pid_t>(pid), 0), -1);
    EXPECT_EQ(errno, ESRCH) << "grandchild " << pid << " outlived the run";
    EXPECT_FALSE(fs::exists("/proc/" + std::to_string(pid)));
}

// The same under the default read-only view, found by a token on its command line.
TEST_F(LocalExecutorTest, DoubleForkedSetsidGrandchildDoesNotSurviveReadonlyView) {
    const std::string token = unique_token("escapee");
    const json result = run({{"argv", {helper(), "daemonize", "grandchild.pid", token}}});
    ASSERT_EQ(result["status"], "OK") << result.dump(2);
    EXPECT_EQ(result["filesystem"], "readonly");
    EXPECT_TRUE(processes_with(token).empty()) << "the grandchild outlived the run";
}

TEST_F(LocalExecutorTest, WorkspaceIsRemovedAfterRun) {
    const json result = run({{"argv", {"pwd"}}, {"files", {{"some/file.txt", "x"}}}});
    ASSERT_EQ(result["status"], "OK") << result.dump(2);
    const std::string workspace = result["stdout"].get<std::string>();
    ASSERT_FALSE(workspace.empty());
    const fs::path path = workspace.substr(0, workspace.size() - 1);  // drop the newline
    EXPECT_NE(path.filename().string().rfind("run-", 0), std::string::npos) << path;
    EXPECT_FALSE(fs::exists(path)) << path << " outlived the run";
    EXPECT_FALSE(result.contains("workspace"));
}

TEST_F(LocalExecutorTest, WorkspaceIsRemovedAfterTimeout) {
    // The workspace is found in a root of the test's own, not from the target's output: on
    // a slow machine (an emulated guest) the timeout may come before the target prints.
    const std::string root = (fs::temp_directory_path() / "sbx-executors-timeout-XXXXXX").string();
    std::vector<char> pattern(root.begin(), root.end());
    pattern.push_back('\0');
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr) << root;
    const json result = run({{"argv", {"sleep", "30"}}, {"limits", {{"timeout_ms", 300}}}},
                            {{"workspace_root", pattern.data()}});
    ASSERT_EQ(result["status"], "TO") << result.dump(2);
    EXPECT_TRUE(fs::is_empty(pattern.data())) << "a workspace outlived the timed-out run";
    fs::remove_all(pattern.data());
}

TEST_F(LocalExecutorTest, WorkspaceIsKeptWhenAsked) {
    const json result = run({{"argv", {"pwd"}}, {"keep_workspace", true}});
    ASSERT_EQ(result["status"], "OK") << result.dump(2);
    const std::string printed = result["stdout"].get<std::string>();
    const fs::path path = printed.substr(0, printed.size() - 1);
    EXPECT_EQ(result["workspace"], path.string());
    EXPECT_TRUE(fs::is_directory(path));
    fs::remove_all(path);
}

TEST_F(LocalExecutorTest, ExistingWorkspaceIsUsedAndNeverDeleted) {
    std::string pattern = (fs::temp_directory_path() / "sbx-executors-test-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    const fs::path folder = pattern;
    const json result = run({{"argv", {"sh", "-c", "pwd; cat given.txt"}},
                             {"workspace", folder.string()},
                             {"files", {{"given.txt", "given"}}}});
    EXPECT_EQ(result["status"], "OK") << result.dump(2);
    EXPECT_EQ(result["stdout"], folder.string() + "\ngiven");
    EXPECT_TRUE(fs::exists(folder / "given.txt"));
    fs::remove_all(folder);
}

TEST_F(LocalExecutorTest, ConfiguredWorkspaceRootHoldsTheWorkspaces) {
    std::string pattern = (fs::temp_directory_path() / "sbx-executors-root-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    const json result = run({{"argv", {"pwd"}}}, {{"workspace_root", pattern}});
    EXPECT_EQ(result["stdout"].get<std::string>().rfind(pattern + "/run-", 0), 0u)
        << result.dump(2);
    EXPECT_TRUE(fs::is_empty(pattern));
    fs::remove_all(pattern);
}

}  // namespace
}  // namespace sbx::executors_test
