// The warm sandbox: runs that name their workspace (as the host's do) start in the calling
// thread's sandbox, made once. Each must find what a cold run finds: an empty /tmp and
// /dev/shm, no process of an earlier run, the mount namespace as built; and a sandbox that
// broke is replaced without the run noticing.
#include <signal.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#include <cstdio>
#include <string>
#include <thread>

#include "local_executor_fixture.hpp"
#include "machine.hpp"
#include "processes.hpp"

namespace sbx::executors_test {
namespace {

namespace fs = std::filesystem;

class WarmSandboxTest : public LocalExecutorTest {
  protected:
    void SetUp() override {
        workspace_ = fs::temp_directory_path() /
                     ("sbx-warm-" + std::to_string(::getpid()) + "-" +
                      ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::create_directories(workspace_);
    }
    void TearDown() override { fs::remove_all(workspace_); }

    json warm_run(const std::string &script, const json &limits = json::object()) const {
        json result = run({{"argv", {"sh", "-c", script}},
                           {"workspace", workspace_.string()},
                           {"show", {helper_folder()}},
                           {"limits", limits}});
        EXPECT_EQ(result["sandbox"], "warm") << result.dump(2);
        return result;
    }

    fs::path workspace_;
};

// Our children that are not the test's own threads: the zygote of this thread's sandbox.
std::vector<pid_t> children_of_this_process() {
    std::vector<pid_t> children;
    for (const sbx::test::LiveProcess &process : sbx::test::live_processes()) {
        const std::string stat = sbx::test::proc_file(process.pid, "stat");
        const std::size_t close = stat.rfind(')');
        if (close == std::string::npos) {
            continue;
        }
        std::istringstream fields(stat.substr(close + 2));
        std::string state;
        long parent = 0;
        fields >> state >> parent;
        if (parent == ::getpid() && state != "Z") {
            children.push_back(process.pid);
        }
    }
    return children;
}

TEST_F(WarmSandboxTest, ARunFindsNothingOfTheRunBefore) {
    const std::string token = unique_token("warm-leftover");
    const json first = warm_run("echo a > /tmp/a && mkdir -p /tmp/d/e && echo b > /dev/shm/b && " +
                                shell_helper() + " daemonize pid " + token);
    ASSERT_EQ(first["status"], "OK") << first.dump(2);
    EXPECT_TRUE(processes_with(token).empty()) << "the daemon outlived its run";

    const json second =
        warm_run("test ! -e /tmp/a && test ! -e /tmp/d && ls -A /dev/shm && echo fresh");
    ASSERT_EQ(second["status"], "OK") << second.dump(2);
    EXPECT_EQ(second["stdout"], "fresh\n") << second.dump(2);
}

// True where a process can be made inside a cgroup v2 folder (clone3's CLONE_INTO_CGROUP:
// Linux 5.7) and the local executor has the entry code for clone3 (x86-64).
bool clones_into_cgroups(const test::CgroupOffer &offer) {
    utsname name{};
    if (offer.version != "cgroup_v2" || ::uname(&name) != 0 ||
        std::string(name.machine) != "x86_64") {
        return false;
    }
    int major = 0;
    int minor = 0;
    return std::sscanf(name.release, "%d.%d", &major, &minor) == 2 &&
           (major > 5 || (major == 5 && minor >= 7));
}

// A warm run's target is made inside its run's cgroup where the kernel can, and moves there
// itself before its exec elsewhere: either way all it does is charged to the run.
TEST_F(WarmSandboxTest, TheTargetRunsInItsRunsCgroupMadeThereWhereTheKernelCan) {
    const test::CgroupOffer offer = test::cgroup_offer("memory");
    ASSERT_FALSE(offer.version.empty())
        << "a run's cgroup needs a memory cgroup: " << offer.why_not;
    const json result = warm_run("cat /proc/self/cgroup", {{"memory_bytes", 256 << 20}});
    ASSERT_EQ(result["status"], "OK") << result.dump(2);
    EXPECT_EQ(result["enforcement"]["memory"], offer.version) << result.dump(2);
    EXPECT_EQ(result["cgroup_entry"],
              clones_into_cgroups(offer) ? "clone_into_cgroup" : "cgroup.procs")
        << result.dump(2);
    EXPECT_NE(result["stdout"].get<std::string>().find("/run-"), std::string::npos)
        << "the target is not in its run's cgroup: " << result.dump(2);
}

// A workspace removed and made again at the same path is another folder: the sandbox that
// attached the old one must not be used for it (the run would find no working directory).
TEST_F(WarmSandboxTest, AWorkspaceMadeAgainAtTheSamePathIsTheOneTheRunSees) {
    ASSERT_EQ(warm_run("true")["status"], "OK");
    fs::remove_all(workspace_);
    fs::create_directories(workspace_);
    std::ofstream(workspace_ / "marker") << "new\n";
    const json result = warm_run("cat marker");
    ASSERT_EQ(result["status"], "OK") << result.dump(2);
    EXPECT_EQ(result["stdout"], "new\n");
}

// An untouched /tmp is kept (a new tmpfs costs an unmount); one a run wrote to is new for
// the next run. The birth time of its root tells which tmpfs the run got.
TEST_F(WarmSandboxTest, AnUntouchedScratchIsKeptAndAWrittenOneIsReplaced) {
    const auto tmp_device = [this] {
        const json result = warm_run("ls -A /dev/shm; stat -c %w /tmp");
        EXPECT_EQ(result["status"], "OK") << result.dump(2);
        return result["stdout"].get<std::string>();
    };
    const std::string first = tmp_device();
    EXPECT_EQ(tmp_device(), first) << "a run that wrote nothing got a new /tmp";
    ASSERT_EQ(warm_run("touch /tmp/x")["status"], "OK");
    const std::string after_write = tmp_device();
    EXPECT_NE(after_write, first) << "a run that wrote to /tmp left it to the next one";
    EXPECT_EQ(tmp_device(), after_write);
}

// A target with CAP_SYS_ADMIN (root) may mount in the sandbox's namespace: the next run must
// not see it. Without root the mount is refused, and the next run sees nothing either.
TEST_F(WarmSandboxTest, AMountARunMadeIsGoneForTheNextRun) {
    const json first = warm_run("mkdir -p m && mount -t tmpfs sbx-warm-marker m 2>/dev/null; true");
    ASSERT_EQ(first["status"], "OK") << first.dump(2);
    const json second = warm_run("grep -c sbx-warm-marker /proc/self/mountinfo; true");
    ASSERT_EQ(second["status"], "OK") << second.dump(2);
    EXPECT_EQ(second["stdout"], "0\n") << second.dump(2);
}

TEST_F(WarmSandboxTest, AKilledSandboxIsReplacedAndTheNextRunPasses) {
    ASSERT_EQ(warm_run("true")["status"], "OK");
    const std::vector<pid_t> zygotes = children_of_this_process();
    ASSERT_FALSE(zygotes.empty()) << "no warm sandbox process is a child of the test";
    for (const pid_t zygote : zygotes) {
        ASSERT_EQ(::kill(zygote, SIGKILL), 0);
    }
    // Let it end (the executor reaps it when it replaces it).
    for (int i = 0; i < 200 && !children_of_this_process().empty(); ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    const json result = warm_run("echo again");
    ASSERT_EQ(result["status"], "OK") << result.dump(2);
    EXPECT_EQ(result["stdout"], "again\n");
}

TEST_F(WarmSandboxTest, ATimeoutEndsEverythingTheRunStarted) {
    const std::string token = unique_token("warm-timeout");
    const json slow = warm_run("sleep 30 " + token + " & sleep 30", {{"timeout_ms", 300}});
    EXPECT_EQ(slow["status"], "TO") << slow.dump(2);
    EXPECT_TRUE(processes_with(token).empty()) << "a process of the timed-out run survived";
    const json next = warm_run("echo next");
    ASSERT_EQ(next["status"], "OK") << next.dump(2);
    EXPECT_EQ(next["stdout"], "next\n");
}

TEST_F(WarmSandboxTest, StdinOutputAndExitCodeAreTheRunsOwn) {
    json spec = {{"argv", {"sh", "-c", "cat; echo err >&2; exit 3"}},
                 {"workspace", workspace_.string()},
                 {"stdin", "hello\n"}};
    for (int i = 0; i < 2; ++i) {
        const json result = run(spec);
        EXPECT_EQ(result["sandbox"], "warm");
        EXPECT_EQ(result["status"], "RE") << result.dump(2);
        EXPECT_EQ(result["exit_code"], 3);
        EXPECT_EQ(result["stdout"], "hello\n");
        EXPECT_EQ(result["stderr"], "err\n");
    }
}

// disk_bytes: each run gets a tmpfs of its own over the workspace, copied back after.
TEST_F(WarmSandboxTest, ATmpfsWorkspaceIsEachRunsOwnAndCopiedBack) {
    const json limits = {{"disk_bytes", 1 << 20}};
    const json first = warm_run("echo one > one.txt && df -k . | tail -1", limits);
    ASSERT_EQ(first["status"], "OK") << first.dump(2);
    EXPECT_EQ(first["enforcement"]["disk"], "tmpfs") << first.dump(2);
    const json full = warm_run("head -c 2097152 /dev/zero > big.bin", limits);
    EXPECT_NE(full["status"], "OK") << full.dump(2);
    EXPECT_EQ(full["limit"], "disk") << full.dump(2);
    const json third = warm_run("cat one.txt", limits);
    ASSERT_EQ(third["status"], "OK") << third.dump(2);
    EXPECT_EQ(third["stdout"], "one\n");
    EXPECT_TRUE(fs::exists(workspace_ / "one.txt"));
}

// `sandbox: cold` gives every run an init of its own, as before warm sandboxes.
TEST_F(WarmSandboxTest, ColdConfigurationStartsEveryRunCold) {
    const json result =
        run({{"argv", {"true"}}, {"workspace", workspace_.string()}}, {{"sandbox", "cold"}});
    ASSERT_EQ(result["status"], "OK") << result.dump(2);
    EXPECT_EQ(result["sandbox"], "cold");
}

}  // namespace
}  // namespace sbx::executors_test
