// CPU, memory and block I/O figures from the container's cgroup, under the real engine, in
// a container of its own and in a pooled one: a busy loop reports CPU seconds, a 48 MiB
// buffer a peak above 48 MiB, a synced 2 MiB file its writes (pooled); a pooled container's peak
// starts again with each run; the parent cgroups of containers of their own are removed after the
// run, and a dead host's by the sweep.
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>

#include "docker_executor_fixture.hpp"

namespace sbx::docker_test {
namespace {

constexpr long kBufferKb = 48 * 1024;

class DockerUsage : public DockerExecutorTest, public ::testing::WithParamInterface<bool> {};

TEST_P(DockerUsage, ABusyLoopReportsCpuSeconds) {
    const json result =
        run(spec({"sh", "-c", "i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done"}), GetParam());
    ASSERT_EQ(result["status"], "OK") << result.dump();
    EXPECT_EQ(result["usage_source"], "cgroup_v1") << result.dump();
    EXPECT_GT(result["cpu_user_s"].get<double>(), 0.1) << result.dump();
    // One thread: never more CPU than wall-clock time (what a wrong unit or a reading
    // over the container's whole life would break).
    EXPECT_LT(result["cpu_user_s"].get<double>() + result["cpu_sys_s"].get<double>(),
              result["wall_s"].get<double>() + 0.05)
        << result.dump();
}

TEST_P(DockerUsage, ABufferShowsInMaxRss) {
    // dd reads /dev/zero into one 48 MiB buffer: every page of it is touched.
    const json result =
        run(spec({"dd", "if=/dev/zero", "of=/dev/null", "bs=48M", "count=1"}), GetParam());
    ASSERT_EQ(result["status"], "OK") << result.dump();
    EXPECT_GT(result["max_rss_kb"].get<long>(), kBufferKb - 1024) << result.dump();
}

TEST_P(DockerUsage, ASyncedFileShowsInDiskWriteBytes) {
    // 2 MiB written and synced by the target itself: I/O its cgroup issued, on v1 too. Then,
    // on the same instance (a pooled one reuses its container), a run that writes nothing:
    // a run's figures are its own, not the container's life so far. A container of its own
    // reports none: its cgroup is gone when it could be read, and the parent cgroup's counts
    // leave out a removed child's (cgroup v1 here: 0 bytes for this very run).
    auto instance = docker_plugin()->create(config(GetParam()));
    const json result =
        run_on(*instance,
               spec({"sh", "-c", "dd if=/dev/zero of=out.bin bs=65536 count=32 conv=fsync 2>&1"}));
    ASSERT_EQ(result["status"], "OK") << result.dump();
    if (!GetParam()) {
        EXPECT_FALSE(result.contains("disk_write_bytes")) << result.dump();
        EXPECT_FALSE(result.contains("disk_read_bytes")) << result.dump();
        return;
    }
    EXPECT_GE(result["disk_write_bytes"].get<std::uint64_t>(), std::uint64_t{2} << 20)
        << result.dump();
    EXPECT_TRUE(result["disk_read_bytes"].is_number_unsigned()) << result.dump();
    const json idle = run_on(*instance, spec({"true"}));
    ASSERT_EQ(idle["pool"], "reused") << idle.dump();
    EXPECT_LT(idle["disk_write_bytes"].get<std::uint64_t>(), std::uint64_t{1} << 20) << idle.dump();
}

TEST_F(DockerExecutorTest, APooledContainersPeakStartsAgainWithEachRun) {
    auto instance = docker_plugin()->create(config(true));
    const json big =
        run_on(*instance, spec({"dd", "if=/dev/zero", "of=/dev/null", "bs=48M", "count=1"}));
    const json small = run_on(*instance, spec({"true"}));
    ASSERT_EQ(small["pool"], "reused") << small.dump();
    EXPECT_GT(big["max_rss_kb"].get<long>(), kBufferKb - 1024) << big.dump();
    EXPECT_LT(small["max_rss_kb"].get<long>(), kBufferKb / 2) << small.dump();
    EXPECT_GT(small["max_rss_kb"].get<long>(), 0) << small.dump();
}

// The folder of this host's parent cgroups, in the cpuacct hierarchy.
std::vector<std::string> parent_cgroups_of(long pid) {
    std::vector<std::string> found;
    std::error_code ignored;
    for (const auto &entry :
         std::filesystem::directory_iterator("/sys/fs/cgroup/cpuacct/sbx-docker", ignored)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind(std::to_string(pid) + "-", 0) == 0) {
            found.push_back(name);
        }
    }
    return found;
}

TEST_F(DockerExecutorTest, AContainerOfItsOwnLeavesNoParentCgroup) {
    const json result = run(spec({"true"}), false);
    ASSERT_EQ(result["status"], "OK") << result.dump();
    EXPECT_EQ(result["usage_source"], "cgroup_v1") << result.dump();
    EXPECT_EQ(parent_cgroups_of(::getpid()), std::vector<std::string>());
}

TEST_F(DockerExecutorTest, TheSweepRemovesADeadHostsParentCgroups) {
    // A pid that was a process and is no more.
    const pid_t dead = ::fork();
    if (dead == 0) {
        ::_exit(0);
    }
    ::waitpid(dead, nullptr, 0);
    const std::string name = std::to_string(dead) + "-1";
    for (const char *hierarchy : {"cpuacct", "memory"}) {
        const std::string folder = std::string("/sys/fs/cgroup/") + hierarchy + "/sbx-docker";
        ::mkdir(folder.c_str(), 0755);
        ASSERT_EQ(::mkdir((folder + "/" + name).c_str(), 0755), 0) << folder << ": " << errno;
    }
    auto sweeper = docker_plugin()->create(config(false));
    const json listed =
        json::parse(sweeper->sweep(json{{"state_dir", state_dir_}, {"dry_run", true}}.dump()));
    EXPECT_NE(listed.dump().find("cgroup /sbx-docker/" + name + " of dead host"), std::string::npos)
        << listed.dump();
    EXPECT_EQ(parent_cgroups_of(dead).size(), 1U) << "a dry run removes nothing";
    sweeper->sweep(json{{"state_dir", state_dir_}, {"dry_run", false}}.dump());
    EXPECT_EQ(parent_cgroups_of(dead), std::vector<std::string>());
    EXPECT_FALSE(std::filesystem::exists("/sys/fs/cgroup/memory/sbx-docker/" + name));
}

INSTANTIATE_TEST_SUITE_P(OneShotAndPooled, DockerUsage, ::testing::Values(false, true),
                         [](const auto &param_info) {
                             return param_info.param ? "pooled" : "one_shot";
                         });

}  // namespace
}  // namespace sbx::docker_test
