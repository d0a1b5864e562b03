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

// A folder of the host outside the workspace and /tmp that the target may not touch: where
// the test runs, or /var/tmp when that is under /tmp (a checkout there).
fs::path writable_host_folder() {
    const std::string here = fs::current_path().string();
    return here.rfind("/tmp/", 0) == 0 || here.rfind("/dev/shm/", 0) == 0 ? fs::path("/var/tmp")
                                                                          : fs::path(here);
}

TEST_F(LocalExecutorTest, ReadonlyViewStopsWritesOutsideWorkspaceAndTmp) {
    const std::string token = unique_token("escape");
    const fs::path outside = writable_host_folder() / token;
    const std::string script = "echo x > '" + outside.string() + "' 2>/dev/null || echo refused; " +
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

// A project folder in the host's real /tmp (where quick trials, CI runners and build trees
// live), removed when the test ends.
class HostTmpProject {
  public:
    explicit HostTmpProject(const std::string &token) : root_("/tmp/" + token) {
        fs::create_directories(root_ / "data");
        std::ofstream(root_ / "lib.sh") << "greeting=hello\n";
        std::ofstream(root_ / "app.sh") << ". \"$(dirname \"$0\")/lib.sh\"\n"
                                           "echo \"$greeting $(cat \"$1\")\"\n";
        std::ofstream(root_ / "data" / "name.txt") << "world\n";
    }
    ~HostTmpProject() { fs::remove_all(root_); }
    HostTmpProject(const HostTmpProject &) = delete;
    HostTmpProject &operator=(const HostTmpProject &) = delete;
    [[nodiscard]] std::string path(const std::string &inside) const {
        return (root_ / inside).string();
    }

  private:
    fs::path root_;
};

TEST_F(LocalExecutorTest, ReadonlyViewShowsWhatTheStepNamesUnderTmpAndNothingElseThere) {
    const HostTmpProject project(unique_token("project"));
    const HostTmpFile unrelated(unique_token("unrelated"));
    // The script sources its sibling, reads a data file named in argv, cannot write to its
    // folder, and does not see the rest of the host's /tmp.
    const std::string script = project.path("app.sh");
    const std::string check = "test -e " + unrelated.path() + " && echo sees-unrelated; echo x > " +
                              project.path("new") + " 2>/dev/null || echo read-only";
    const json result = run({{"argv", {"/bin/sh", script, project.path("data/name.txt")}}});
    ASSERT_EQ(result["status"], "OK") << result.dump(2);
    EXPECT_EQ(result["stdout"], "hello world\n") << result.dump(2);
    const json probe = run({{"argv", {"/bin/sh", "-c", check, project.path("app.sh")}}});
    ASSERT_EQ(probe["status"], "OK") << probe.dump(2);
    EXPECT_EQ(probe["stdout"], "read-only\n") << probe.dump(2);
    EXPECT_FALSE(fs::exists(project.path("new")));
}

TEST_F(LocalExecutorTest, ShownPathsMarkedWritableTakeWritesAndOthersStayReadOnly) {
    const HostTmpProject project(unique_token("shown"));
    const std::string log = project.path("data/log.txt");
    std::ofstream(log) << "";
    const std::string script = "echo line >> " + log + " && echo appended; echo x > " +
                               project.path("lib.sh") + " 2>/dev/null || echo lib-read-only";
    const json result = run({{"argv", {"/bin/sh", "-c", script}},
                             {"show", {log + ":rw", project.path("lib.sh"), "/tmp/absent-path"}}});
    ASSERT_EQ(result["status"], "OK") << result.dump(2);
    EXPECT_EQ(result["stdout"], "appended\nlib-read-only\n") << result.dump(2);
    std::ifstream written(log);
    EXPECT_EQ(std::string(std::istreambuf_iterator<char>(written), {}), "line\n");
    EXPECT_EQ(run_status({{"argv", {"/bin/true"}}, {"show", {"relative/path"}}}), SBX_INVALID);
}

TEST_F(LocalExecutorTest, BindsWithoutMinimalAreRefused) {
    EXPECT_EQ(run_status({{"argv", {"/bin/true"}}, {"binds", {"/usr"}}}), SBX_INVALID);
    EXPECT_EQ(run_status({{"argv", {"/bin/true"}}, {"filesystem", "minimal"}, {"binds", {"usr"}}}),
              SBX_INVALID);
    EXPECT_EQ(run_status({{"argv", {"/bin/true"}}, {"filesystem", "elsewhere"}}), SBX_INVALID);
}

}  // namespace
}  // namespace sbx::executors_test
