// The local executor inside its host: cancellation, concurrent instances, no leaked fds, no
// inherited signal state, and the process-group fallback where no PID namespace can be made.
#include <linux/capability.h>
#include <sys/syscall.h>

#include <atomic>
#include <csignal>
#include <thread>

#include "local_executor_fixture.hpp"

namespace sbx::executors_test {
namespace {

std::size_t open_fd_count() {
    std::size_t count = 0;
    for ([[maybe_unused]] const auto &entry :
         std::filesystem::directory_iterator("/proc/self/fd")) {
        ++count;
    }
    return count;
}

// Takes CAP_SYS_ADMIN away from this process, so clone(CLONE_NEWPID) fails with EPERM.
bool drop_sys_admin() {
    __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = {};
    if (::syscall(SYS_capget, &header, data) != 0) {
        return false;
    }
    const unsigned bit = 1U << CAP_SYS_ADMIN;
    data[0].effective &= ~bit;
    data[0].permitted &= ~bit;
    data[0].inheritable &= ~bit;
    return ::syscall(SYS_capset, &header, data) == 0;
}

TEST_F(LocalExecutorTest, HostCancellationKillsTheTargetAndReportsCancelled) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    // In a child process: the host's cancel flag cannot be cleared once set.
    EXPECT_EXIT(
        {
            const auto instance = local_plugin()->create(json::object());
            std::thread canceller([] {
                std::this_thread::sleep_for(std::chrono::milliseconds(300));
                plugins::request_cancel();
            });
            const auto start = std::chrono::steady_clock::now();
            int code = 1;
            try {
                (void)instance->run(json{{"argv", {"sleep", "30"}}}.dump());
            } catch (const plugins::PluginCallError &e) {
                const double seconds =
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
                code = e.status() == SBX_CANCELLED && seconds < 1.5 ? 0 : 2;
            }
            canceller.join();
            std::exit(code);
        },
        ::testing::ExitedWithCode(0), "");
}

TEST_F(LocalExecutorTest, WithoutPidNamespaceFallsBackToProcessGroup) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    const std::string token = unique_token("pgroup");
    EXPECT_EXIT(
        {
            if (!drop_sys_admin()) {
                std::exit(3);
            }
            const std::string script =
                helper() + " busy " + token + " & " + helper() + " busy " + token;
            const json result =
                run({{"argv", {"sh", "-c", script}}, {"limits", {{"timeout_ms", 300}}}});
            const bool ok = result["isolation"] == "process_group" && result["status"] == "TO" &&
                            processes_with(token).empty();
            if (!ok) {
                std::fprintf(stderr, "%s\n", result.dump(2).c_str());
            }
            std::exit(ok ? 0 : 4);
        },
        ::testing::ExitedWithCode(0), "");
    EXPECT_TRUE(processes_with(token).empty());
}

TEST_F(LocalExecutorTest, ConcurrentInstancesDoNotMixTheirRuns) {
    std::atomic<int> mismatches{0};
    std::vector<std::thread> threads;
    threads.reserve(2);
    for (int worker = 0; worker < 2; ++worker) {
        threads.emplace_back([worker, &mismatches] {
            const auto instance = local_plugin()->create(json::object());
            for (int i = 0; i < 20; ++i) {
                const std::string expected = std::to_string(worker) + "-" + std::to_string(i);
                const json spec{{"argv", {"sh", "-c", "printf %s \"$WHO\"; cat"}},
                                {"env", {{"WHO", expected}}},
                                {"stdin", "!"}};
                const json result = json::parse(instance->run(spec.dump()));
                if (result["stdout"] != expected + "!") {
                    ++mismatches;
                }
            }
        });
    }
    for (std::thread &thread : threads) {
        thread.join();
    }
    EXPECT_EQ(mismatches.load(), 0);
}

TEST_F(LocalExecutorTest, RunsLeakNoFileDescriptors) {
    (void)run({{"argv", {"/bin/true"}}});  // first-use allocations
    const std::size_t before = open_fd_count();
    for (int i = 0; i < 5; ++i) {
        (void)run({{"argv", {"/bin/true"}}});
        (void)run({{"argv", {"sbx-no-such-program"}}});
        (void)run({{"argv", {"/nonexistent"}}});
        (void)run({{"argv", {"sleep", "5"}}, {"limits", {{"timeout_ms", 10}, {"pids", 8}}}});
    }
    EXPECT_EQ(open_fd_count(), before);
}

TEST_F(LocalExecutorTest, TargetInheritsNoSignalMaskOrIgnoredSignals) {
    std::signal(SIGPIPE, SIG_IGN);
    sigset_t blocked;
    sigemptyset(&blocked);
    sigaddset(&blocked, SIGUSR1);
    ASSERT_EQ(::pthread_sigmask(SIG_BLOCK, &blocked, nullptr), 0);
    const json result = run({{"argv", {"grep", "-E", "^Sig(Blk|Ign)", "/proc/self/status"}}});
    ::pthread_sigmask(SIG_UNBLOCK, &blocked, nullptr);
    std::signal(SIGPIPE, SIG_DFL);
    EXPECT_EQ(result["stdout"], "SigBlk:\t0000000000000000\nSigIgn:\t0000000000000000\n");
}

TEST_F(LocalExecutorTest, LargeStdinReachesTheTargetWhole) {
    const std::string text(3 * 1024 * 1024 + 7, 'x');
    const json result = run({{"argv", {"wc", "-c"}}, {"stdin", text}});
    EXPECT_EQ(result["stdout"], std::to_string(text.size()) + "\n");
}

TEST_F(LocalExecutorTest, MemoryLimitFallsBackToRlimitWithCgroupsOff) {
    const json result =
        run({{"argv", {helper(), "hog"}}, {"limits", {{"memory_bytes", 64 * 1024 * 1024}}}},
            {{"cgroups", "off"}});
    EXPECT_EQ(result["enforcement"]["memory"], "rlimit_as");
    EXPECT_NE(result["status"], "OK") << result.dump(2);
    EXPECT_EQ(result["stdout"].get<std::string>().find("without being stopped"), std::string::npos);
}

}  // namespace
}  // namespace sbx::executors_test
