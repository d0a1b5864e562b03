// Limits under the real engine: a memory hog is OOM (State.OOMKilled), a sleeper is TO and
// its container is gone, the pids limit holds.
#include "docker_executor_fixture.hpp"

namespace sbx::docker_test {
namespace {

class DockerLimits : public DockerExecutorTest, public ::testing::WithParamInterface<bool> {};

TEST_P(DockerLimits, MemoryHogIsOOM) {
    // Doubles a shell string until the 32 MiB limit (swap included) stops it.
    const json result = run(spec({"sh", "-c", "a=aaaaaaaaaaaaaaaa; while :; do a=$a$a; done"},
                                 {{"memory_bytes", 32 * 1024 * 1024}}),
                            GetParam());
    EXPECT_EQ(result["status"], "OOM") << result.dump();
    EXPECT_EQ(result["limit"], "memory");
    EXPECT_EQ(result["enforcement"]["memory"], "docker Memory = MemorySwap");
}

TEST_P(DockerLimits, SleeperTimesOutAndItsContainerIsRemoved) {
    const json result = run(spec({"sleep", "60"}, {{"timeout_ms", 1000}}), GetParam());
    EXPECT_EQ(result["status"], "TO") << result.dump();
    EXPECT_EQ(result["limit"], "timeout");
    EXPECT_LT(result["wall_s"].get<double>(), 30.0);
    const std::string name = result["container"];
    EXPECT_EQ(docker("ps -aq --filter name=^/" + name + "$"), "") << name << " still exists";
}

TEST_P(DockerLimits, PidsLimitHolds) {
    const json result =
        run(spec({"sh", "-c", "i=0; while [ $i -lt 40 ]; do sleep 5 & i=$((i+1)); done; wait"},
                 {{"pids", 16}, {"timeout_ms", 20000}}),
            GetParam());
    EXPECT_NE(result["stderr"].get<std::string>().find("fork"), std::string::npos) << result.dump();
}

INSTANTIATE_TEST_SUITE_P(OneShotAndPooled, DockerLimits, ::testing::Values(false, true),
                         [](const auto &param_info) {
                             return param_info.param ? "pooled" : "one_shot";
                         });

}  // namespace
}  // namespace sbx::docker_test
