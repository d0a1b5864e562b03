// A sandbox must not change how a program ends: every way a program dies by a signal is
// reported as when the test runs the same program natively (fork + exec here, with the same
// rlimit), through the real local.so. Under a PID-1 target the kernel dropped self-sent
// signals, so raise(SIGSEGV) passed and abort() came out as SIGSEGV; these cases hold the
// init design to the native truth.
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "local_executor_fixture.hpp"

namespace sbx::executors_test {
namespace {

struct NativeEnd {
    int signal = 0;     // 0 when the program exited
    int exit_code = 0;  // 128 + signal when it did not
};

// Runs `argv` in `folder` as a child of the test, under `limit` when one is given.
NativeEnd run_natively(const std::vector<std::string> &argv, const std::filesystem::path &folder,
                       int resource = -1, rlim_t soft = 0) {
    const pid_t child = ::fork();
    if (child == 0) {
        if (resource >= 0) {
            const rlimit limit{soft, soft + (resource == RLIMIT_CPU ? 1 : 0)};
            ::setrlimit(static_cast<__rlimit_resource_t>(resource), &limit);
        }
        const rlimit no_core{0, 0};
        ::setrlimit(RLIMIT_CORE, &no_core);
        if (::chdir(folder.c_str()) != 0) {
            ::_exit(120);
        }
        const int null_fd = ::open("/dev/null", O_WRONLY);
        ::dup2(null_fd, 1);
        ::dup2(null_fd, 2);
        std::vector<char *> args;
        args.reserve(argv.size() + 1);
        for (const std::string &arg : argv) {
            args.push_back(const_cast<char *>(arg.c_str()));
        }
        args.push_back(nullptr);
        ::execvp(args[0], args.data());
        ::_exit(127);
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    NativeEnd end;
    if (WIFSIGNALED(status)) {
        end.signal = WTERMSIG(status);
        end.exit_code = 128 + end.signal;
    } else {
        end.exit_code = WEXITSTATUS(status);
    }
    return end;
}

class NativeEndTest : public LocalExecutorTest {
  protected:
    void SetUp() override {
        folder_ = std::filesystem::temp_directory_path() /
                  ("sbx-native-" + std::to_string(::getpid()) + "-" +
                   ::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::create_directories(folder_);
    }
    void TearDown() override { std::filesystem::remove_all(folder_); }

    // The run's spec: started cold (a workspace of its own) or in the thread's warm sandbox
    // (a workspace the spec names, as the host does).
    json spec(const std::vector<std::string> &argv, const json &limits, bool warm) const {
        json spec = {{"argv", argv}, {"limits", limits}};
        if (warm) {
            spec["workspace"] = folder_.string();
        }
        return spec;
    }

    // The program natively and through the executor, cold and warm, end the same way.
    void expect_same_end(const std::vector<std::string> &argv, const json &limits = json::object(),
                         int resource = -1, rlim_t soft = 0, const json &config = json::object()) {
        const NativeEnd native = run_natively(argv, folder_, resource, soft);
        ASSERT_NE(native.signal, 0) << "the program did not die by a signal natively";
        for (const bool warm : {false, true}) {
            const json result = run(spec(argv, limits, warm), config);
            EXPECT_EQ(result["sandbox"], warm ? "warm" : "cold") << result.dump(2);
            EXPECT_EQ(result["signal"], native.signal) << result.dump(2);
            EXPECT_EQ(result["exit_code"], native.exit_code) << result.dump(2);
            EXPECT_EQ(result["status"], "SG") << result.dump(2);
        }
    }

    std::filesystem::path folder_;
};

TEST_F(NativeEndTest, AbortEndsAsSigabrt) {
    expect_same_end({helper(), "abort"});
}

TEST_F(NativeEndTest, FailedAssertEndsAsSigabrt) {
    expect_same_end({helper(), "assert"});
}

TEST_F(NativeEndTest, RaisedSegvEndsAsSigsegv) {
    expect_same_end({helper(), "raise-segv"});
}

TEST_F(NativeEndTest, KillingItselfWithSigtermEndsAsSigterm) {
    expect_same_end({helper(), "kill-self"});
}

TEST_F(NativeEndTest, ShellKillingItselfEndsAsSigterm) {
    expect_same_end({"sh", "-c", "kill -TERM $$; echo survived"});
}

TEST_F(NativeEndTest, RealNullWriteEndsAsSigsegv) {
    expect_same_end({helper(), "null-write"});
}

TEST_F(NativeEndTest, WriterToAClosedPipeEndsAsSigpipe) {
    expect_same_end({helper(), "closed-pipe"});
}

TEST_F(NativeEndTest, WritePastTheFileSizeLimitEndsAsSigxfsz) {
    constexpr rlim_t kLimit = rlim_t{64} * 1024;
    expect_same_end({helper(), "write", "big.bin", "1048576"}, {{"disk_bytes", kLimit}},
                    RLIMIT_FSIZE, kLimit, {{"disk_limit", "file_size"}});
}

TEST_F(NativeEndTest, CpuTimeLimitEndsAsSigxcpu) {
    const json limits = {{"cpu_time_s", 1}, {"timeout_ms", 45000}};  // wall: a safeguard
    const NativeEnd native = run_natively({helper(), "busy"}, folder_, RLIMIT_CPU, 1);
    ASSERT_EQ(native.signal, SIGXCPU);
    for (const bool warm : {false, true}) {
        const json result = run(spec({helper(), "busy"}, limits, warm));
        EXPECT_EQ(result["signal"], native.signal) << result.dump(2);
        EXPECT_EQ(result["exit_code"], native.exit_code);
        // The verdict still names the limit that ended it.
        EXPECT_EQ(result["status"], "TO");
        EXPECT_EQ(result["limit"], "cpu_time");
    }
}

// The init forwards what the run is sent and the target stays its child: not PID 1.
TEST_F(NativeEndTest, TargetIsNotPidOneAndSeesItsOwnProcesses) {
    const json result = run({{"argv", {"sh", "-c", "echo $$; ls /proc | grep -c '^[0-9]'"}}});
    ASSERT_EQ(result["status"], "OK") << result.dump(2);
    EXPECT_EQ(result["isolation"], "pid_namespace");
    // PID 1 is the init, the shell is 2; with the read-only view's own /proc only the
    // init, the shell and ls (and grep) are there.
    EXPECT_EQ(result["stdout"].get<std::string>().substr(0, 2), "2\n") << result.dump(2);
    const int processes = std::stoi(result["stdout"].get<std::string>().substr(2));
    EXPECT_LE(processes, 5) << result.dump(2);
}

// In the warm sandbox PID 1 is the zygote, which outlives the run; the target's PID is
// whatever comes next, as natively, never 1; and only the run's processes are there.
TEST_F(NativeEndTest, WarmTargetIsNotPidOneAndSeesItsOwnProcesses) {
    for (int run_number = 0; run_number < 2; ++run_number) {
        const json result =
            run(spec({"sh", "-c", "echo $$; ls /proc | grep -c '^[0-9]'"}, json::object(), true));
        ASSERT_EQ(result["status"], "OK") << result.dump(2);
        EXPECT_EQ(result["sandbox"], "warm");
        const std::string out = result["stdout"].get<std::string>();
        EXPECT_GT(std::stoi(out), 1) << result.dump(2);
        EXPECT_LE(std::stoi(out.substr(out.find('\n') + 1)), 5) << result.dump(2);
    }
}

}  // namespace
}  // namespace sbx::executors_test
