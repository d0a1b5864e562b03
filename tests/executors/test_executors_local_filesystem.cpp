// What a target sees of the filesystem: `readonly` (the default) stops it writing outside
// its workspace, a private /tmp and /dev/shm, and every run starts with them empty;
// `minimal` shows nothing of the host but its binds; `host` is the host's tree as it is.
#include "local_executor_fixture.hpp"

namespace sbx::executors_test {
namespace {

namespace fs = std::filesystem;

// A file in the host's real /tmp, removed when the test ends.
class HostTmpFile {
  public:
    explicit HostTmpFile(const std::string &token) : path_("/tmp/" + token) {
        std::ofstream(path_) << "host\n";
    }
    ~HostTmpFile() { fs::remove(path_); }
    HostTmpFile(const HostTmpFile &) = delete;
    HostTmpFile &operator=(const HostTmpFile &) = delete;
    [[nodiscard]] const std::string &path() const { return path_; }

  private:
    std::string path_;
};

// Where the test runs (a folder outside the workspace and /tmp that the target may not touch).
fs::path writable_host_folder() {
    return fs::current_path();
}

TEST_F(LocalExecutorTest, ReadonlyViewStopsWritesOutsideWorkspaceAndTmp) {
    const std::string token = unique_token("escape");
    const fs::path outside = writable_host_folder() / token;
    const std::string script = "echo x > " + outside.string() + " 2>/dev/null || echo refused; " +
                               "echo x > /usr/" + token + " 2>/dev/null || echo refused-usr; " +
                               "echo x > in-workspace && echo workspace-ok; " +
                               "echo x > /tmp/t && echo tmp-ok; echo x > /dev/shm/s && echo shm-ok";
    const json result = run({{"argv", {"sh", "-c", script}}});
    ASSERT_EQ(result["status"], "OK") << result.dump(2);
    EXPECT_EQ(result["filesystem"], "readonly");
    EXPECT_EQ(result["stdout"], "refused\nrefused-usr\nworkspace-ok\ntmp-ok\nshm-ok\n")
        << result.dump(2);
    EXPECT_FALSE(fs::exists(outside)) << "the target wrote outside its workspace";
    EXPECT_FALSE(fs::exists("/usr/" + token));
}

TEST_F(LocalExecutorTest, ReadonlyViewGivesEachRunAnEmptyPrivateTmp) {
    const std::string token = unique_token("tmpfile");
    const HostTmpFile host_file(token);
    const std::string script =
        "test -e /tmp/" + token + " && echo sees-host-tmp; test -e /tmp/left-" + token +
        " && echo sees-previous-run; touch /tmp/left-" + token + " && echo done";
    for (int run_number = 0; run_number < 2; ++run_number) {
        const json result = run({{"argv", {"sh", "-c", script}}});
        ASSERT_EQ(result["status"], "OK") << result.dump(2);
        EXPECT_EQ(result["stdout"], "done\n") << "run " << run_number << ": " << result.dump(2);
    }
    EXPECT_FALSE(fs::exists("/tmp/left-" + token)) << "a run's /tmp reached the host";
}

TEST_F(LocalExecutorTest, HostViewIsTheHostsTree) {
    const std::string token = unique_token("hostview");
    const HostTmpFile host_file(token);
    const json result = run({{"argv", {"cat", host_file.path()}}, {"filesystem", "host"}});
    ASSERT_EQ(result["status"], "OK") << result.dump(2);
    EXPECT_EQ(result["stdout"], "host\n");
    EXPECT_EQ(result["filesystem"], "host");
}

TEST_F(LocalExecutorTest, MinimalViewShowsOnlyItsBinds) {
    // The shell and ls with their libraries, wherever this distribution keeps them.
    json binds = json::array();
    for (const char *path : {"/usr", "/bin", "/lib", "/lib64", "/lib32", "/libx32", "/sbin"}) {
        if (fs::exists(path)) {
            binds.push_back(path);
        }
    }
    const json result = run({{"argv", {"/bin/sh", "-c", "ls /; echo x > /usr/f || echo ro; pwd"}},
                             {"filesystem", "minimal"},
                             {"binds", binds}});
    ASSERT_EQ(result["status"], "OK") << result.dump(2);
    const std::string out = result["stdout"];
    EXPECT_EQ(out.find("etc\n"), std::string::npos) << out;
    EXPECT_EQ(out.find("home\n"), std::string::npos) << out;
    EXPECT_NE(out.find("usr\n"), std::string::npos) << out;
    EXPECT_NE(out.find("proc\n"), std::string::npos) << out;
    EXPECT_NE(out.find("\nro\n"), std::string::npos) << out;
}

TEST_F(LocalExecutorTest, BindsWithoutMinimalAreRefused) {
    EXPECT_EQ(run_status({{"argv", {"/bin/true"}}, {"binds", {"/usr"}}}), SBX_INVALID);
    EXPECT_EQ(run_status({{"argv", {"/bin/true"}}, {"filesystem", "minimal"}, {"binds", {"usr"}}}),
              SBX_INVALID);
    EXPECT_EQ(run_status({{"argv", {"/bin/true"}}, {"filesystem", "elsewhere"}}), SBX_INVALID);
}

}  // namespace
}  // namespace sbx::executors_test
