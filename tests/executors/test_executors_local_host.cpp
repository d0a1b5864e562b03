// The local executor inside its host: cancellation, concurrent instances, no leaked fds, no
// inherited signal state, and the process-group fallback where no PID namespace can be made.
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <cstddef>

#include <atomic>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "local_executor_fixture.hpp"
#include "processes.hpp"
#include "wait.hpp"

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

// Makes clone() with CLONE_NEWUSER fail with EPERM in this process, as on a machine where
// unprivileged user namespaces are disabled.
bool forbid_user_namespaces() {
#if defined(__x86_64__)
    constexpr std::uint32_t kArch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
    constexpr std::uint32_t kArch = AUDIT_ARCH_AARCH64;
#endif
    sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, kArch, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone, 0, 3),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, args[0])),  // low half
        BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_NEWUSER, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    sock_fprog program{static_cast<unsigned short>(sizeof(filter) / sizeof(filter[0])), filter};
    return ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 &&
           ::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) == 0;
}

// True when this machine lets a process without CAP_SYS_ADMIN make a user namespace.
bool user_namespaces_allowed() {
    const pid_t child = ::fork();
    if (child == 0) {
        ::_exit(::unshare(CLONE_NEWUSER) == 0 ? 0 : 1);
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

// True when a process runs with exactly `argv` as its command line.
bool process_running(const std::vector<std::string> &argv) {
    std::string wanted;
    for (const auto &arg : argv) {
        wanted += arg;
        wanted += '\0';
    }
    for (const sbx::test::LiveProcess &process : sbx::test::live_processes()) {
        if (process.cmdline == wanted) {
            return true;
        }
    }
    return false;
}

TEST_F(LocalExecutorTest, HostCancellationKillsTheTargetAndReportsCancelled) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    // In a child process: the host's cancel flag cannot be cleared once set.
    EXPECT_EXIT(
        {
            const auto instance = local_plugin()->create(json::object());
            // A duration no other process uses, so the target can be told apart.
            const std::string duration = "30." + std::to_string(::getpid());
            std::atomic<std::chrono::steady_clock::time_point> cancelled{};
            std::thread canceller([&] {
                // Cancelled once the target runs, not after a guessed delay.
                (void)test::wait_until([&] { return process_running({"sleep", duration}); });
                cancelled = std::chrono::steady_clock::now();
                plugins::request_cancel();
            });
            int code = 1;
            try {
                (void)instance->run(json{{"argv", {"sleep", duration}}}.dump());
            } catch (const plugins::PluginCallError &e) {
                // The cancel, not the target's own end 30 s later, ended the run.
                const double seconds = std::chrono::duration<double>(
                                           std::chrono::steady_clock::now() - cancelled.load())
                                           .count();
                code = e.status() == SBX_CANCELLED && seconds < 15 ? 0 : 2;
            }
            canceller.join();
            std::exit(code);
        },
        ::testing::ExitedWithCode(0), "");
}

// Without CAP_SYS_ADMIN (as any user): PID and mount namespaces inside a user namespace of
// the run's own, with the same guarantees: nothing survives, the read-only view holds.
TEST_F(LocalExecutorTest, WithoutSysAdminRunsInAUserNamespace) {
    ASSERT_TRUE(user_namespaces_allowed())
        << "this machine refuses unprivileged user namespaces (sysctl "
           "user.max_user_namespaces or kernel.unprivileged_userns_clone); the rootless "
           "executor needs them";
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    const std::string token = unique_token("userns");
    EXPECT_EXIT(
        {
            if (!drop_sys_admin()) {
                std::exit(3);
            }
            const std::string script = shell_helper() + " daemonize pid " + token +
                                       "; touch /usr/sbx-escape-" + token +
                                       " 2>/dev/null; "
                                       "id -u; echo > x && echo workspace-writable";
            const json result = run({{"argv", {"sh", "-c", script}}, {"show", {helper_folder()}}});
            const std::string expected = std::to_string(::geteuid()) + "\nworkspace-writable\n";
            const bool ok =
                result["isolation"] == "pid_namespace" && result["user_namespace"] == true &&
                result["status"] == "OK" &&
                result["stdout"].get<std::string>().find(expected) != std::string::npos &&
                processes_with(token).empty() &&
                !std::filesystem::exists("/usr/sbx-escape-" + token);
            if (!ok) {
                std::fprintf(stderr, "%s\n", result.dump(2).c_str());
            }
            std::exit(ok ? 0 : 4);
        },
        ::testing::ExitedWithCode(0), "");
    EXPECT_TRUE(processes_with(token).empty());
}

// Neither CAP_SYS_ADMIN nor user namespaces: the init leads a session that is killed at the
// end; a read-only view cannot be built, and the run says so instead of running unconfined.
TEST_F(LocalExecutorTest, WithoutAnyNamespaceFallsBackToProcessGroup) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    const std::string token = unique_token("pgroup");
    EXPECT_EXIT(
        {
            if (!drop_sys_admin() || !forbid_user_namespaces()) {
                std::exit(3);
            }
            const std::string script =
                shell_helper() + " busy " + token + " & " + shell_helper() + " busy " + token;
            const json result = run({{"argv", {"sh", "-c", script}},
                                     {"limits", {{"timeout_ms", 300}}},
                                     {"filesystem", "host"}});
            const json refused = run({{"argv", {"/bin/true"}}});
            const bool ok =
                result["isolation"] == "process_group" && result["status"] == "TO" &&
                processes_with(token).empty() && refused["status"] == "XX" &&
                refused["error"].get<std::string>().find("filesystem: host") != std::string::npos;
            if (!ok) {
                std::fprintf(stderr, "%s\n%s\n", result.dump(2).c_str(), refused.dump(2).c_str());
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
