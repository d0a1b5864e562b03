// A program ends under the docker executor as it ends natively: the same signal and the same
// exit code (128 + N) for every way of dying, compared case by case with the same static
// program run by the test on this machine, in a container of its own and pooled (through the
// container's agent, and through an exec).
#include <filesystem>

#include "docker_executor_fixture.hpp"
#include "native_exit.hpp"

namespace sbx::docker_test {
namespace {

namespace fs = std::filesystem;

// "one_shot", or the pool's transport: "agent", "exec".
using Case = std::tuple<test::ExitCase, std::string>;

class DockerExitStatus : public DockerExecutorTest, public ::testing::WithParamInterface<Case> {};

TEST_P(DockerExitStatus, ReportedAsNatively) {
    const auto &[c, mode] = GetParam();
    // In the workspace: bind-mounted at the same path, so the container runs this very file.
    const std::string program = workspace_ + "/sbx_test_target";
    fs::copy_file(SBX_STATIC_TEST_TARGET_PATH, program);
    const test::NativeEnding native = test::run_natively(program, c, workspace_);
    ASSERT_EQ(native.signal, c.expected_signal)
        << c.behaviour << " natively ended with exit code " << native.exit_code;

    json argv = json::array({program});
    for (const auto &arg : c.args) {
        argv.push_back(arg);
    }
    json limits = {{"timeout_ms", 60000}};
    if (c.cpu_time_s > 0) {
        limits["cpu_time_s"] = c.cpu_time_s;
    }
    json executor_config = config(mode != "one_shot");
    if (mode != "one_shot") {
        executor_config["pool_transport"] = mode;
    }
    auto instance = docker_plugin()->create(executor_config);
    const json result = run_on(*instance, spec(argv, limits));
    if (mode != "one_shot") {
        EXPECT_EQ(result["transport"], mode) << result.dump();
    }
    EXPECT_EQ(result["status"], c.status) << result.dump();
    EXPECT_EQ(result["signal"], native.signal) << result.dump();
    EXPECT_EQ(result["exit_code"], native.exit_code) << result.dump();
}

INSTANTIATE_TEST_SUITE_P(EveryWayToDie, DockerExitStatus,
                         ::testing::Combine(::testing::ValuesIn(test::exit_cases(false)),
                                            ::testing::Values("one_shot", "agent", "exec")),
                         [](const auto &param_info) {
                             return std::get<0>(param_info.param).behaviour + "_" +
                                    std::get<1>(param_info.param);
                         });

}  // namespace
}  // namespace sbx::docker_test
