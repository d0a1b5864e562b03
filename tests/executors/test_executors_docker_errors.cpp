// Failures of the engine are results, not hangs: a missing image and a dead daemon each end
// the run as XX with the engine's message in diagnostics.docker_error, and are counted in
// pool_failures.json.
#include <fstream>

#include "docker_executor_fixture.hpp"

namespace sbx::docker_test {
namespace {

class DockerErrors : public DockerExecutorTest, public ::testing::WithParamInterface<bool> {};

TEST_P(DockerErrors, MissingImageIsAClearXXWithoutRetries) {
    json s = spec({"true"});
    s["image"] = "sbx-no-such-image:missing";
    const json result = run(s, GetParam());
    EXPECT_EQ(result["status"], "XX") << result.dump();
    const std::string error = result["diagnostics"]["docker_error"];
    EXPECT_NE(error.find("No such image"), std::string::npos) << error;
    EXPECT_EQ(result["diagnostics"]["attempts"], 1) << "a refusal is not retried";
    EXPECT_FALSE(result.contains("sandbox_fault")) << "nor run again by the host: " << result;
    const json failures =
        json::parse(std::ifstream(state_dir_ + "/docker/pool_failures.json"), nullptr, false);
    EXPECT_EQ(failures["sbx-no-such-image:missing"]["consecutive"], 1) << failures.dump();
}

TEST_P(DockerErrors, DeadDaemonIsRetriedThenAClearXX) {
    ::setenv("DOCKER_HOST", ("unix://" + state_dir_ + "/no-daemon.sock").c_str(), 1);
    json cfg = config(GetParam());
    cfg["fail_threshold"] = 2;
    auto instance = docker_plugin()->create(cfg);
    ::unsetenv("DOCKER_HOST");
    const json result = run_on(*instance, spec({"true"}));
    EXPECT_EQ(result["status"], "XX") << result.dump();
    const std::string error = result["diagnostics"]["docker_error"];
    EXPECT_NE(error.find("cannot reach the Docker engine"), std::string::npos) << error;
    EXPECT_EQ(result["diagnostics"]["attempts"], 3);
    EXPECT_EQ(result.value("sandbox_fault", false), true) << "the host runs it again";
    const json failures =
        json::parse(std::ifstream(state_dir_ + "/docker/pool_failures.json"), nullptr, false);
    EXPECT_EQ(failures[kImage]["consecutive"], 3) << failures.dump();
    EXPECT_EQ(failures[kImage]["alerts"], 1) << "the threshold reached once: " << failures.dump();
    // The engine back: a start counts a success and ends the streak.
    const json again = run(spec({"true"}), GetParam());
    EXPECT_EQ(again["status"], "OK") << again.dump();
    const json after =
        json::parse(std::ifstream(state_dir_ + "/docker/pool_failures.json"), nullptr, false);
    EXPECT_EQ(after[kImage]["consecutive"], 0) << after.dump();
    EXPECT_GE(after[kImage]["successes"].get<int>(), 1) << after.dump();
    EXPECT_GT(after[kImage]["last_seconds"].get<double>(), 0.0) << after.dump();
}

INSTANTIATE_TEST_SUITE_P(OneShotAndPooled, DockerErrors, ::testing::Values(false, true),
                         [](const auto &param_info) {
                             return param_info.param ? "pooled" : "one_shot";
                         });

}  // namespace
}  // namespace sbx::docker_test
