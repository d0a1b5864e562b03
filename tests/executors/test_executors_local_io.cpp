// What flows into and out of a target: files, stdin, environment, capped output, exit codes
// and signals, exec failures, and the PID-1 behaviour of the namespace it runs in.
#include "local_executor_fixture.hpp"

#include <cstdlib>

namespace sbx::executors_test {
namespace {

constexpr std::uint64_t kFlood = 256ULL * 1024 * 1024;

TEST_F(LocalExecutorTest, OutputFloodIsCappedWithoutGrowingHostMemory) {
    // 256 times the cap: enough to show the cap and flat memory, and within the timeout on
    // an emulated CPU too (the kernel matrix's guest moves tens of MB/s through a pipe).
    const long peak_before_kb = self_status_kb("VmHWM");
    const json result =
        run({{"argv", {"head", "-c", "256M", "/dev/zero"}}, {"limits", {{"timeout_ms", 20000}}}});
    const long peak_after_kb = self_status_kb("VmHWM");
    ASSERT_EQ(result["status"], "OK") << result["error"];
    EXPECT_LE(result["stdout"].get<std::string>().size(), 1048576u);
    EXPECT_EQ(result["stdout"].get<std::string>().size(), 1048576u);
    EXPECT_GE(result["stdout_bytes"].get<std::uint64_t>(), kFlood);
    EXPECT_TRUE(result["stdout_truncated"].get<bool>());
    EXPECT_FALSE(result["stderr_truncated"].get<bool>());
    EXPECT_LT(peak_after_kb - peak_before_kb, 64 * 1024) << "the flood grew the host's memory";
}

TEST_F(LocalExecutorTest, SpecOutputBytesOverridesTheCap) {
    const json result = run({{"argv", {"printf", "abcdef"}}, {"limits", {{"output_bytes", 4}}}});
    EXPECT_EQ(result["stdout"], "abcd");
    EXPECT_EQ(result["stdout_bytes"], 6);
    EXPECT_TRUE(result["stdout_truncated"].get<bool>());
}

TEST_F(LocalExecutorTest, InvalidUtf8IsReplaced) {
    const json result = run({{"argv", {"printf", "\\377ok\\342\\202\\254"}}});
    EXPECT_EQ(result["stdout"], "\xEF\xBF\xBDok\xE2\x82\xAC");
    EXPECT_EQ(result["stdout_bytes"], 6);
}

TEST_F(LocalExecutorTest, FilesAndStdinReachTheTarget) {
    const json result = run({{"argv", {"sh", "-c", "cat data/in.txt; cat; cat >&2 data/in.txt"}},
                             {"files", {{"data/in.txt", "from a file\n"}}},
                             {"stdin", "from stdin\n"}});
    EXPECT_EQ(result["status"], "OK") << result.dump(2);
    EXPECT_EQ(result["stdout"], "from a file\nfrom stdin\n");
    EXPECT_EQ(result["stderr"], "from a file\n");
}

TEST_F(LocalExecutorTest, EnvReachesTheTargetAndHostEnvDoesNot) {
    ASSERT_EQ(::setenv("SBX_TEST_HOST_SECRET", "leaked", 1), 0);
    const json result = run({{"argv", {"env"}}, {"env", {{"FOO", "bar"}}}});
    ASSERT_EQ(result["status"], "OK") << result.dump(2);
    const std::string env = result["stdout"];
    EXPECT_NE(env.find("FOO=bar\n"), std::string::npos) << env;
    EXPECT_NE(env.find("LANG=C.UTF-8\n"), std::string::npos) << env;
    EXPECT_NE(env.find("PATH="), std::string::npos) << env;
    EXPECT_NE(env.find("HOME=/"), std::string::npos) << env;
    EXPECT_EQ(env.find("SBX_TEST_HOST_SECRET"), std::string::npos) << env;
}

TEST_F(LocalExecutorTest, InheritEnvPassesTheHostEnvironment) {
    ASSERT_EQ(::setenv("SBX_TEST_HOST_SECRET", "shared", 1), 0);
    const json result =
        run({{"argv", {"env"}}, {"env", {{"FOO", "bar"}}}}, {{"inherit_env", true}});
    const std::string env = result["stdout"];
    EXPECT_NE(env.find("SBX_TEST_HOST_SECRET=shared\n"), std::string::npos) << env;
    EXPECT_NE(env.find("FOO=bar\n"), std::string::npos) << env;
}

TEST_F(LocalExecutorTest, MissingProgramIsXxNamingIt) {
    const json result = run({{"argv", {"sbx-no-such-program"}}});
    EXPECT_EQ(result["status"], "XX") << result.dump(2);
    EXPECT_NE(result["error"].get<std::string>().find("sbx-no-such-program"), std::string::npos);
    EXPECT_NE(result["error"].get<std::string>().find("ENOENT"), std::string::npos);

    const json absolute = run({{"argv", {"/nonexistent/sbx-program"}}});
    EXPECT_EQ(absolute["status"], "XX") << absolute.dump(2);
    EXPECT_NE(absolute["error"].get<std::string>().find("/nonexistent/sbx-program"),
              std::string::npos);
    EXPECT_NE(absolute["error"].get<std::string>().find("ENOENT"), std::string::npos);
}

TEST_F(LocalExecutorTest, ExitCodesAndSignalsAreReported) {
    const json failed = run({{"argv", {"sh", "-c", "exit 3"}}});
    EXPECT_EQ(failed["status"], "RE");
    EXPECT_EQ(failed["exit_code"], 3);
    EXPECT_EQ(failed["signal"], 0);

    const json crashed = run({{"argv", {helper(), "segv"}}});
    EXPECT_EQ(crashed["status"], "SG") << crashed.dump(2);
    EXPECT_EQ(crashed["signal"], SIGSEGV);

    const json fine = run({{"argv", {"/bin/true"}}});
    EXPECT_EQ(fine["status"], "OK");
    EXPECT_EQ(fine["exit_code"], 0);
    EXPECT_EQ(fine["limit"], "");
}

}  // namespace
}  // namespace sbx::executors_test
