// The local executor's limits, with real processes: memory (OOM), wall-clock timeout, CPU
// time, pids (a fork bomb) and file size, each ending or hurting the run as documented.
#include "local_executor_fixture.hpp"
#include "machine.hpp"

namespace sbx::executors_test {
namespace {

constexpr std::uint64_t kMiB = std::uint64_t{1024} * 1024;

TEST_F(LocalExecutorTest, MemoryHogOverLimitEndsAsOom) {
    const test::CgroupOffer offer = test::cgroup_offer("memory");
    ASSERT_FALSE(offer.version.empty()) << "an OOM needs a memory cgroup: " << offer.why_not;
    const json result = run({{"argv", {helper(), "hog"}},
                             {"limits", {{"memory_bytes", 64 * kMiB}, {"timeout_ms", 20000}}}});
    EXPECT_EQ(result["status"], "OOM") << result.dump(2);
    EXPECT_EQ(result["limit"], "memory");
    EXPECT_EQ(result["signal"], SIGKILL);
    EXPECT_EQ(result["enforcement"]["memory"], offer.version) << "no memory cgroup could be made";
    // Swap is held to the same limit, or there is no swap to escape to: the limit is real.
    if (test::has_swap()) {
        EXPECT_EQ(result["enforcement"]["memory_swap"], test::swap_hold(offer.version));
    }
    EXPECT_EQ(result["stdout"], "") << "the hog got further than it should";
}

TEST_F(LocalExecutorTest, SleeperOverWallClockLimitEndsAsTimeoutWithinTwoSeconds) {
    double seconds = 0;
    const json result =
        run_timed({{"argv", {"sleep", "30"}}, {"limits", {{"timeout_ms", 1000}}}}, seconds);
    EXPECT_EQ(result["status"], "TO") << result.dump(2);
    EXPECT_EQ(result["limit"], "timeout");
    EXPECT_GE(seconds, 0.95);
    EXPECT_LT(seconds, 2.0);
    EXPECT_GE(result["wall_s"].get<double>(), 0.95);
}

TEST_F(LocalExecutorTest, DefaultTimeoutFromConfigAppliesWhenSpecHasNone) {
    double seconds = 0;
    const json result =
        run_timed({{"argv", {"sleep", "30"}}}, seconds, {{"default_timeout_ms", 300}});
    EXPECT_EQ(result["status"], "TO") << result.dump(2);
    EXPECT_LT(seconds, 2.0);
}

TEST_F(LocalExecutorTest, BusyLoopOverCpuTimeEndsAsTimeoutWithCpuTimeLimit) {
    // The wall-clock limit is only a safeguard: on a loaded 2-core CI machine (qemu guests
    // and burner threads beside it) a busy loop got less than 1 s of CPU in 10 s of wall
    // time, and the wall clock ended it first.
    const json result =
        run({{"argv", {helper(), "busy"}}, {"limits", {{"cpu_time_s", 1}, {"timeout_ms", 45000}}}});
    EXPECT_EQ(result["status"], "TO") << result.dump(2);
    EXPECT_EQ(result["limit"], "cpu_time") << result.dump(2);
    EXPECT_EQ(result["signal"], SIGXCPU) << result.dump(2);
    EXPECT_GT(result["cpu_user_s"].get<double>() + result["cpu_sys_s"].get<double>(), 0.5)
        << result.dump(2);
    // SIGXCPU at the soft limit ends it (test_executors_local_native.cpp holds it to the
    // native signal) — before the wall-clock safeguard, which `limit` proves without timing
    // a noisy machine.
}

TEST_F(LocalExecutorTest, ForkBombUnderPidsLimitIsContainedAndLeavesNothing) {
    const test::CgroupOffer offer = test::cgroup_offer("pids");
    ASSERT_FALSE(offer.version.empty())
        << "containing a fork bomb needs a pids cgroup: " << offer.why_not;
    const std::string token = unique_token("forkbomb");
    const json result = run({{"argv", {helper(), "forkbomb", token}},
                             {"limits", {{"pids", 32}, {"timeout_ms", 1000}}}});
    EXPECT_EQ(result["status"], "TO") << result.dump(2);
    EXPECT_EQ(result["limit"], "timeout");
    EXPECT_TRUE(contains(result["limits_hit"], "pids")) << result.dump(2);
    EXPECT_EQ(result["enforcement"]["pids"], offer.version);

    // The machine, and this process, are still responsive.
    double seconds = 0;
    const json after = run_timed({{"argv", {"/bin/true"}}}, seconds);
    EXPECT_EQ(after["status"], "OK");
    EXPECT_LT(seconds, 0.5);
    EXPECT_TRUE(processes_with(token).empty()) << "fork bomb processes survived the run";
}

// disk_limit: file_size (and the fallback without CAP_SYS_ADMIN): the largest file. The
// tmpfs workspace, the default, is in test_executors_local_resources.cpp.
TEST_F(LocalExecutorTest, WritingPastDiskLimitFails) {
    const json result = run({{"argv", {helper(), "write", "big.bin", std::to_string(kMiB)}},
                             {"limits", {{"disk_bytes", 64 * 1024}}}},
                            {{"disk_limit", "file_size"}});
    // As natively: the write past RLIMIT_FSIZE raises SIGXFSZ, whose default action ends
    // the program.
    EXPECT_EQ(result["status"], "SG") << result.dump(2);
    EXPECT_EQ(result["signal"], SIGXFSZ);
    EXPECT_EQ(result["limit"], "disk");
    EXPECT_EQ(result["enforcement"]["disk"], "rlimit_fsize");
}

}  // namespace
}  // namespace sbx::executors_test
