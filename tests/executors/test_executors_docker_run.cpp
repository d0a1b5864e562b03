// The docker executor runs commands and reports them in the uniform schema: exit codes,
// signals, stdout/stderr (capped), stdin, env, workspace files, one-shot and pooled.
#include <filesystem>
#include <fstream>

#include "docker_executor_fixture.hpp"

namespace sbx::docker_test {
namespace {

class DockerRun : public DockerExecutorTest, public ::testing::WithParamInterface<bool> {};

TEST_P(DockerRun, ExitCodeOutputAndWorkspace) {
    json s = spec({"sh", "-c", "echo out; echo err >&2; echo made > made.txt; exit 3"});
    const json result = run(s, GetParam());
    EXPECT_EQ(result["status"], "RE") << result.dump();
    EXPECT_EQ(result["exit_code"], 3);
    EXPECT_EQ(result["stdout"], "out\n");
    EXPECT_EQ(result["stderr"], "err\n");
    EXPECT_EQ(result["stdout_bytes"], 4);
    std::ifstream made(workspace_ + "/made.txt");
    std::string line;
    std::getline(made, line);
    EXPECT_EQ(line, "made") << "the workspace is bind-mounted at the same path";
}

TEST_P(DockerRun, StdinEnvFilesAndCwd) {
    json s = spec({"sh", "-c", "cat; echo \"$GREETING\"; cat in.txt; pwd"});
    s["stdin"] = "from stdin\n";
    s["env"] = {{"GREETING", "hello"}};
    s["files"] = {{"in.txt", "from a file\n"}};
    const json result = run(s, GetParam());
    EXPECT_EQ(result["status"], "OK") << result.dump();
    EXPECT_EQ(result["stdout"], "from stdin\nhello\nfrom a file\n" + workspace_ + "\n");
}

// `--data-dir sandbox_data` (the default) gives a relative state_dir; the private folder
// bind-mounted from it must still be a path, not the name of a volume.
TEST_P(DockerRun, ARelativeStateDirWorks) {
    const std::string relative =
        std::filesystem::relative(state_dir_, std::filesystem::current_path()).string();
    ASSERT_NE(relative.front(), '/');
    json s = spec({"cat"});
    s["stdin"] = "through the private folder\n";
    s["state_dir"] = relative;
    const json result = run(s, GetParam());
    EXPECT_EQ(result["status"], "OK") << result.dump();
    EXPECT_EQ(result["stdout"], "through the private folder\n") << result.dump();
}

TEST_P(DockerRun, SignalIsSG) {
    // Not the shell itself: in a container of its own the target is PID 1, which ignores
    // signals it has no handler for (as under local's PID namespace).
    const json result = run(spec({"sh", "-c", "sh -c 'kill -9 $$'; exit $?"}), GetParam());
    EXPECT_EQ(result["status"], "SG") << result.dump();
    EXPECT_EQ(result["signal"], 9);
    EXPECT_EQ(result["exit_code"], 137);
}

TEST_P(DockerRun, OutputIsCapped) {
    const json result =
        run(spec({"sh", "-c", "yes | head -c 100000"}, {{"output_bytes", 1000}}), GetParam());
    EXPECT_EQ(result["status"], "OK") << result.dump();
    EXPECT_EQ(result["stdout"].get<std::string>().size(), 1000U);
    EXPECT_EQ(result["stdout_bytes"], 100000);
    EXPECT_EQ(result["stdout_truncated"], true);
}

TEST_P(DockerRun, NoNetworkByDefault) {
    const json result = run(spec({"sh", "-c", "ls /sys/class/net"}), GetParam());
    EXPECT_EQ(result["stdout"], "lo\n") << result.dump();
}

INSTANTIATE_TEST_SUITE_P(OneShotAndPooled, DockerRun, ::testing::Values(false, true),
                         [](const auto &param_info) {
                             return param_info.param ? "pooled" : "one_shot";
                         });

}  // namespace
}  // namespace sbx::docker_test
