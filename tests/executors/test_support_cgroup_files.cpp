// Tests of plugins/support's cgroup readers (cgroup_files, cgroup_v2_files, cgroup_v1_files):
// the kernel's file formats, written into a temporary folder as the kernel writes them, and
// the real files of this machine's hierarchies, whichever it mounts (v2 in the kernel-matrix
// guest and on most users' machines, v1 with a v2 beside it on a hybrid one).
#include <gtest/gtest.h>

#include <sys/statfs.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <linux/magic.h>

#include "machine.hpp"
#include "support/cgroup_files.hpp"
#include "support/cgroup_v1_files.hpp"
#include "support/cgroup_v2_files.hpp"

namespace sbx::support {
namespace {

namespace fs = std::filesystem;

// A folder of cgroup files written by the test, removed when the test ends.
class CgroupFilesTest : public ::testing::Test {
  protected:
    void SetUp() override {
        std::string pattern = (fs::temp_directory_path() / "sbx-cgroup-files-XXXXXX").string();
        ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
        folder_ = pattern;
    }
    void TearDown() override {
        std::error_code ignored;
        fs::remove_all(folder_, ignored);
    }
    void write(const std::string &name, const std::string &text) const {
        std::ofstream(fs::path(folder_) / name) << text;
    }
    std::string folder_;
};

// As a Linux 6.1 kernel writes them for a cgroup with memory, pids, cpu and io enabled.
constexpr const char kMemoryEvents[] =
    "low 0\nhigh 0\nmax 12\noom 2\noom_kill 1\noom_group_kill 0\n";
constexpr const char kCpuStat[] =
    "usage_usec 123456\nuser_usec 100000\nsystem_usec 23456\ncore_sched.force_idle_usec 0\n"
    "nr_periods 50\nnr_throttled 7\nthrottled_usec 35000\nnr_bursts 0\nburst_usec 0\n";
constexpr const char kIoStat[] =
    "8:0 rbytes=4096 wbytes=8192 rios=1 wios=2 dbytes=0 dios=0\n"
    "253:0 rbytes=100 wbytes=0 rios=1 wios=0 dbytes=0 dios=0\n";

TEST_F(CgroupFilesTest, V2CountersAreReadFromTheKernelsFormats) {
    write("memory.events", kMemoryEvents);
    write("memory.peak", "8388608\n");
    write("pids.events", "max 3\n");
    write("cpu.stat", kCpuStat);
    write("io.stat", kIoStat);
    const CgroupV2Counters counters = read_cgroup_v2_counters(folder_);
    EXPECT_EQ(counters.oom_kills, 1U);
    EXPECT_EQ(counters.memory_peak_bytes, 8388608U);
    EXPECT_EQ(counters.pids_refused, 3U);
    EXPECT_EQ(counters.cpu_user_usec, 100000U);
    EXPECT_EQ(counters.cpu_system_usec, 23456U);
    EXPECT_EQ(counters.cpu_throttled_periods, 7U);
    EXPECT_EQ(counters.cpu_throttled_usec, 35000U);
    EXPECT_EQ(counters.disk_read_bytes, 4196U);
    EXPECT_EQ(counters.disk_write_bytes, 8192U);
}

TEST_F(CgroupFilesTest, MissingFilesLeaveTheirCountersUnknown) {
    write("cpu.stat", "usage_usec 5\nuser_usec 3\nsystem_usec 2\n");  // no cpu controller
    const CgroupV2Counters counters = read_cgroup_v2_counters(folder_);
    EXPECT_EQ(counters.cpu_user_usec, 3U);
    EXPECT_FALSE(counters.cpu_throttled_periods.has_value());
    EXPECT_FALSE(counters.oom_kills.has_value());
    EXPECT_FALSE(counters.memory_peak_bytes.has_value());
    EXPECT_FALSE(counters.pids_refused.has_value());
    EXPECT_FALSE(counters.disk_read_bytes.has_value());
    const CgroupV2Counters nowhere = read_cgroup_v2_counters(folder_ + "/absent");
    EXPECT_FALSE(nowhere.cpu_user_usec.has_value());
}

TEST_F(CgroupFilesTest, AnIoStatWithNoDeviceIsNoIoYet) {
    write("io.stat", "");
    const CgroupV2Counters counters = read_cgroup_v2_counters(folder_);
    EXPECT_EQ(counters.disk_read_bytes, 0U);
    EXPECT_EQ(counters.disk_write_bytes, 0U);
}

TEST_F(CgroupFilesTest, ControllersAndMembers) {
    write("cgroup.controllers", "cpuset cpu io memory pids\n");
    write("cgroup.subtree_control", "memory pids\n");
    write("cgroup.procs", "12\n345\n");
    EXPECT_EQ(offered_controllers(folder_), "cpuset cpu io memory pids\n");
    EXPECT_TRUE(cgroup_v2_mounted(folder_));
    EXPECT_EQ(enabled_controllers(folder_), "memory pids\n");
    EXPECT_EQ(cgroup_members(folder_), (std::vector<pid_t>{12, 345}));
    write("cgroup.procs", "");
    EXPECT_EQ(cgroup_members(folder_), std::vector<pid_t>{});
    EXPECT_FALSE(cgroup_members(folder_ + "/absent").has_value());
    EXPECT_FALSE(offered_controllers(folder_ + "/absent").has_value());
    EXPECT_EQ(enabled_controllers(folder_ + "/absent"), "");
}

TEST(CgroupFormats, FlatKeyedValuesMatchWholeKeysOnly) {
    EXPECT_EQ(flat_keyed_value(kMemoryEvents, "oom"), 2U);
    EXPECT_EQ(flat_keyed_value(kMemoryEvents, "oom_kill"), 1U);
    EXPECT_EQ(flat_keyed_value(kMemoryEvents, "kill"), std::nullopt);
    EXPECT_EQ(flat_keyed_value("max 3", "max"), 3U);  // no final newline
    EXPECT_EQ(flat_keyed_value("max lots\n", "max"), std::nullopt);
    EXPECT_EQ(flat_keyed_value("", "max"), std::nullopt);
}

TEST(CgroupFormats, SingleValuesAreOneWholeNumber) {
    EXPECT_EQ(single_value("8388608\n"), 8388608U);
    EXPECT_EQ(single_value("max\n"), std::nullopt);  // memory.max without a limit
    EXPECT_EQ(single_value("12 34\n"), std::nullopt);
    EXPECT_EQ(single_value("-1\n"), std::nullopt);
    EXPECT_EQ(single_value(""), std::nullopt);
}

TEST(CgroupFormats, ControllerWordsAreWholeWords) {
    EXPECT_TRUE(has_word("cpuset cpu io memory pids\n", "cpu"));
    EXPECT_TRUE(has_word("cpuset cpu io memory pids\n", "pids"));
    EXPECT_FALSE(has_word("cpuset io memory\n", "cpu"));
    EXPECT_FALSE(has_word("", "io"));
}

TEST(CgroupFormats, BlockIoOfV1BlkioFiles) {
    const auto bytes = block_io_bytes(
        "8:0 Read 4096\n8:0 Write 8192\n8:0 Sync 12288\n8:0 Async 0\n8:0 Discard 0\n"
        "8:0 Total 12288\nTotal 12288\n");
    ASSERT_TRUE(bytes.has_value());
    EXPECT_EQ(bytes->read, 4096U);
    EXPECT_EQ(bytes->written, 8192U);
    EXPECT_FALSE(block_io_bytes("Total 0\n").has_value());
}

TEST(CgroupFormats, MembershipLinesOfBothVersions) {
    const auto memberships =
        cgroup_memberships("12:cpu,cpuacct:/a b\n1:name=systemd:/b\nno colons\n0::/c:d\n");
    ASSERT_EQ(memberships.size(), 3U);
    EXPECT_EQ(memberships[0].controllers, "cpu,cpuacct");
    EXPECT_EQ(memberships[0].path, "/a b") << "a path keeps its spaces";
    EXPECT_EQ(memberships[1].controllers, "name=systemd");
    EXPECT_EQ(unified_cgroup_path(memberships), "/c:d") << "and the colons after the second";
    EXPECT_EQ(unified_cgroup_path(cgroup_memberships("4:memory:/x\n")), std::nullopt);
    EXPECT_TRUE(cgroup_memberships("").empty());
}

TEST_F(CgroupFilesTest, V1CountersAreReadFromTheKernelsFormats) {
    write("memory.oom_control", "oom_kill_disable 0\nunder_oom 0\noom_kill 4\n");
    write("memory.max_usage_in_bytes", "1048576\n");
    write("pids.events", "max 2\n");
    write("cpu.stat", "nr_periods 10\nnr_throttled 3\nthrottled_time 5000000\n");
    write("cpuacct.usage_user", "2000000000\n");
    write("cpuacct.usage_sys", "500000000\n");
    write("blkio.throttle.io_service_bytes", "Total 0\n");
    EXPECT_EQ(read_cgroup_v1_memory(folder_).oom_kills, 4U);
    EXPECT_EQ(read_cgroup_v1_memory(folder_).memory_peak_bytes, 1048576U);
    EXPECT_EQ(read_cgroup_v1_pids_refused(folder_), 2U);
    EXPECT_EQ(read_cgroup_v1_throttling(folder_).periods, 3U);
    EXPECT_EQ(read_cgroup_v1_throttling(folder_).throttled_ns, 5000000U);
    EXPECT_TRUE(has_cgroup_v1_cpu_time(folder_));
    EXPECT_EQ(read_cgroup_v1_cpu_time(folder_).user_ns, 2000000000U);
    EXPECT_EQ(read_cgroup_v1_cpu_time(folder_).system_ns, 500000000U);
    const auto io = read_cgroup_v1_block_io(folder_);  // no device yet: zero, not unknown
    ASSERT_TRUE(io.has_value());
    EXPECT_EQ(io->read + io->written, 0U);
    // The recursive file, where the kernel has it, counts the cgroup's children too.
    write("blkio.throttle.io_service_bytes_recursive", "8:0 Read 10\n8:0 Write 20\nTotal 30\n");
    EXPECT_EQ(read_cgroup_v1_block_io(folder_)->written, 20U);
    EXPECT_FALSE(read_cgroup_v1_block_io(folder_ + "/absent").has_value());
}

TEST_F(CgroupFilesTest, KernelFilesAreReadWhole) {
    const std::string text(10000, 'x');  // more than one read(2)
    write("long", text);
    EXPECT_EQ(read_kernel_file(folder_ + "/long"), text);
    EXPECT_EQ(read_kernel_file(folder_ + "/absent"), std::nullopt);
}

bool readable(const std::string &path) {
    return ::access(path.c_str(), R_OK) == 0;
}

// The real files of each cgroup v2 hierarchy this machine mounts: each counter is known
// exactly when the kernel offers its file, and this process is a member of its own cgroup.
TEST(CgroupFilesOfThisMachine, V2CountersAreKnownWhereTheKernelOffersThem) {
    struct statfs root {};
    ASSERT_EQ(::statfs("/sys/fs/cgroup", &root), 0);
    EXPECT_EQ(cgroup_v2_mounted(), root.f_type == CGROUP2_SUPER_MAGIC);
    for (const std::string &mount : test::cgroup_mount_points()) {
        SCOPED_TRACE("cgroup v2 at " + mount);
        EXPECT_TRUE(cgroup_v2_mounted(mount));
        const std::string own = mount + test::own_cgroup_path();
        const CgroupV2Counters counters = read_cgroup_v2_counters(own);
        ASSERT_EQ(counters.cpu_user_usec.has_value(), readable(own + "/cpu.stat"));
        EXPECT_EQ(counters.oom_kills.has_value(), readable(own + "/memory.events"));
        EXPECT_EQ(counters.memory_peak_bytes.has_value(), readable(own + "/memory.peak"));
        EXPECT_EQ(counters.pids_refused.has_value(), readable(own + "/pids.events"));
        EXPECT_EQ(counters.disk_read_bytes.has_value(), readable(own + "/io.stat"));
        // Throttling is in cpu.stat where the cpu controller is on (the root's too, on
        // newer kernels), never without cpu.stat.
        if (counters.cpu_throttled_periods) {
            EXPECT_TRUE(counters.cpu_user_usec.has_value());
        }
        if (counters.cpu_user_usec) {
            // CPU time only grows.
            volatile unsigned long spin = 0;
            for (unsigned long i = 0; i < 20000000; ++i) {
                spin = spin + i;
            }
            EXPECT_GE(read_cgroup_v2_counters(own).cpu_user_usec, counters.cpu_user_usec);
        }
        const auto members = cgroup_members(own);
        ASSERT_TRUE(members.has_value());
        EXPECT_NE(std::find(members->begin(), members->end(), ::getpid()), members->end());
        const auto offered = offered_controllers(own);
        ASSERT_TRUE(offered.has_value());
        if (has_word(*offered, "memory") && own != mount + "/") {
            EXPECT_TRUE(counters.oom_kills.has_value()) << "memory offered: " << *offered;
        }
    }
}

// This process's own memberships, as the kernel lists them: the unified path where v2 is
// mounted, the memory controller's path where v1's memory hierarchy is.
TEST(CgroupFilesOfThisMachine, OwnMembershipsAreTheKernels) {
    const auto own = cgroup_memberships_of("self");
    ASSERT_FALSE(own.empty()) << "every process is in a cgroup of each mounted hierarchy";
    const auto by_pid = cgroup_memberships_of(std::to_string(::getpid()));
    ASSERT_EQ(by_pid.size(), own.size());
    for (const auto &membership : own) {
        EXPECT_EQ(membership.path.rfind('/', 0), 0U) << membership.path;
    }
    for (const std::string &mount : test::cgroup_mount_points()) {
        EXPECT_EQ(unified_cgroup_path(own), test::own_cgroup_path()) << "v2 mounted at " << mount;
    }
    for (const std::string &mount : test::cgroup_mount_points("memory")) {
        // The controller list is comma-separated ("memory", or "cpu,cpuacct").
        const auto memory = std::find_if(own.begin(), own.end(), [](const auto &membership) {
            return ("," + membership.controllers + ",").find(",memory,") != std::string::npos;
        });
        ASSERT_NE(memory, own.end()) << "v1 memory mounted at " << mount;
        EXPECT_EQ(memory->path, test::own_cgroup_path("memory"));
    }
    EXPECT_TRUE(cgroup_memberships_of("0").empty()) << "no process 0 in /proc";
}

// The real files of a v1 memory hierarchy, where this machine has one.
TEST(CgroupFilesOfThisMachine, V1MemoryCountersAreKnownWhereTheKernelOffersThem) {
    for (const std::string &mount : test::cgroup_mount_points("memory")) {
        SCOPED_TRACE("cgroup v1 memory at " + mount);
        const std::string own = mount + test::own_cgroup_path("memory");
        const CgroupV1Memory memory = read_cgroup_v1_memory(own);
        EXPECT_EQ(memory.memory_peak_bytes.has_value(),
                  readable(own + "/memory.max_usage_in_bytes"));
        if (memory.memory_peak_bytes) {
            EXPECT_GT(*memory.memory_peak_bytes, 0U) << "this process uses memory";
        }
    }
}

}  // namespace
}  // namespace sbx::support
