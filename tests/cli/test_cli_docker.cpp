// The docker executor end to end through the real binary: the same small workflow gives
// the same per-run result schema and the same ROI under local and docker (selected per
// workflow, and by SANDBOX_DOCKER=1), check-resources counts nothing left behind, and the
// network injector's namespace holds a docker target.
// Needs the real engine (tools/test starts it); fails, never skips, without it.
#include <signal.h>
#include <sys/wait.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "executor_parity.hpp"

namespace {

using nlohmann::json;

class DockerCli : public sbx::test::ExecutorParityTest {
  protected:
    void SetUp() override {
        ExecutorParityTest::SetUp();
        const auto ping = sbx::test::run_command(
            {"/bin/sh", "-c",
             "curl -fsS --max-time 5 --unix-socket /var/run/docker.sock http://localhost/_ping"});
        ASSERT_EQ(ping.out, "OK") << "no Docker engine on /var/run/docker.sock; start it with "
                                     "tools/start-docker and build images with "
                                     "tools/build-test-images (tools/test does both)";
    }
};

TEST_F(DockerCli, SameWorkflowSameRoiAndResultSchemaUnderLocalAndDocker) {
    const json local = scenarios("    executor: local\n");
    const auto local_keys = result_keys();
    std::filesystem::remove_all(dir_ + "/data");
    const json docker = scenarios("    executor: docker\n");
    const auto docker_keys = result_keys();

    expect_same_verdicts(local, docker);
    expect_abi_result_keys(local_keys, "local");
    expect_abi_result_keys(docker_keys, "docker");
    const auto images = query("SELECT DISTINCT json_extract(result, '$.image') FROM steps");
    ASSERT_EQ(images.size(), 1U);
    EXPECT_EQ(images[0][0], "sbx-busybox:local");
}

// Invalid UTF-8 in argv and env cannot go through the engine's JSON API: docker-run-init
// reads such a command from a file (an exec, a container of its own); the pool's agent gets
// the bytes as they are on its own wire. Pooled through the agent and through an exec, and
// in a container of its own.
TEST_F(DockerCli, RawBytesReachTheTargetExactlyPooledAndAlone) {
    expect_raw_bytes_reach_the_target("    executor: docker\n");
    EXPECT_EQ(query("SELECT json_extract(result, '$.pool'), json_extract(result, '$.transport') "
                    "FROM steps"),
              (std::vector<std::vector<std::string>>{{"new", "agent"}}));
    std::filesystem::remove_all(dir_ + "/data");
    expect_raw_bytes_reach_the_target("    executor: docker\n",
                                      "plugins: {docker: {pool_transport: exec}}\n");
    EXPECT_EQ(query("SELECT json_extract(result, '$.pool'), json_extract(result, '$.transport') "
                    "FROM steps"),
              (std::vector<std::vector<std::string>>{{"new", "exec"}}));
    std::filesystem::remove_all(dir_ + "/data");
    expect_raw_bytes_reach_the_target("    executor: docker\n",
                                      "plugins: {docker: {pool: false}}\n");
    EXPECT_EQ(query("SELECT json_extract(result, '$.pool') FROM steps"),
              (std::vector<std::vector<std::string>>{{""}}));
}

TEST_F(DockerCli, SandboxDockerSelectsDockerAndLeavesNothingBehind) {
    write_settings(parity_settings(""));
    const auto result =
        sbx::test::run_command({SBX_BINARY, "--config", settings_, "--data-dir", dir_ + "/data",
                                "run-scenarios", "7", "--repetitions", "1", "--json"},
                               {{"SANDBOX_DOCKER", "1"}});
    EXPECT_EQ(result.exit_code, 0) << result.err;
    const auto containers = query("SELECT DISTINCT json_extract(result, '$.container') FROM steps");
    ASSERT_FALSE(containers.empty());
    EXPECT_NE(containers[0][0], "") << "ran in a container";
    // Other tests' workspaces may be listed; no container of this executor may be.
    const auto left = runner({"check-resources", "--json"});
    const json report = json::parse(left.out);
    EXPECT_FALSE(report["by_kind"].contains("docker")) << left.out;
    EXPECT_EQ(report["errors"], json::array()) << left.out;
}

// An image that will not start, past the pool's threshold: the run is an error of the
// sandbox (not a verdict), and the session's end raises both alerts, given to the alert
// command; the counters the exporter reads are the executor's.
TEST_F(DockerCli, AnImageThatWillNotStartRaisesAlertsAndIsCounted) {
    const std::string alerts = dir_ + "/alerts.jsonl";
    write_settings(R"(extends: default
alert_command: [/bin/sh, -c, 'printf "%s\n" "$SANDBOX_ALERT" >> "$0"', ")" +
                   alerts + R"("]
plugins: {docker: {image: "sbx-no-such-image:missing", fail_threshold: 1}}
workflows:
  - name: gone
    executor: docker
    steps:
      - run: ["true"]
)");
    const std::string preset = write_file("normal.json", R"({"SCENARIO_NAME": "normal"})");
    const auto result = runner({"run", "-w", "gone", "--runs", "1", "--preset-file", preset});
    EXPECT_EQ(result.exit_code, 0) << result.out << result.err;
    std::ifstream in(alerts);
    std::map<std::string, json> by_kind;
    for (std::string line; std::getline(in, line);) {
        const json alert = json::parse(line);
        by_kind[alert["kind"].get<std::string>()] = alert;
    }
    ASSERT_EQ(by_kind.count("container_start_failures"), 1U) << result.err;
    EXPECT_EQ(by_kind["container_start_failures"]["subject"], "sbx-no-such-image:missing");
    ASSERT_EQ(by_kind.count("sandbox_errors"), 1U) << result.err;
    EXPECT_EQ(by_kind["sandbox_errors"]["session"], 1);
    const json counters =
        json::parse(std::ifstream(dir_ + "/data/state/docker/pool_failures.json"), nullptr, false);
    const json &image = counters["sbx-no-such-image:missing"];
    EXPECT_EQ(image["alerts"], 1) << counters.dump();
    EXPECT_GE(image["failures"].get<int>(), 1) << counters.dump();
    EXPECT_GT(image["last_seconds"].get<double>(), 0.0) << counters.dump();
    EXPECT_EQ(query("SELECT COUNT(*) FROM alerts WHERE delivered = 1")[0][0], "2");

    // An alert command that fails is a warning and the row's error, never the exit code.
    write_settings(R"(extends: default
alert_command: [/bin/sh, -c, 'echo no pager >&2; exit 3']
plugins: {docker: {image: "sbx-no-such-image:missing", fail_threshold: 1}}
workflows:
  - name: gone
    executor: docker
    steps:
      - run: ["true"]
)");
    const auto refused = runner({"run", "-w", "gone", "--runs", "1", "--preset-file", preset});
    EXPECT_EQ(refused.exit_code, 0) << refused.err;
    EXPECT_NE(refused.err.find("did not take the sandbox_errors alert: exit 3: no pager"),
              std::string::npos)
        << refused.err;
    EXPECT_EQ(query("SELECT delivered, error FROM alerts WHERE session_id = 2 AND kind = "
                    "'sandbox_errors'"),
              (std::vector<std::vector<std::string>>{{"0", "exit 3: no pager"}}));
}

// The pooled container kills what a run started and empties /tmp before the next run: three
// runs in one container each find nothing of the runs before, and the pool is gone after.
TEST_F(DockerCli, EveryRunInThePoolStartsClean) {
    expect_every_run_starts_clean("    executor: docker\n");
    const auto containers = query("SELECT DISTINCT json_extract(result, '$.container') FROM steps");
    ASSERT_EQ(containers.size(), 1U) << "one pooled container served the three runs";
    EXPECT_EQ(sbx::test::run_command(
                  {"/bin/sh", "-c", "docker ps -aq --filter name=^/" + containers[0][0] + "$"})
                  .out,
              "")
        << containers[0][0] << " outlived the command";
}

// SIGTERM (and SIGINT, the same path) mid-run: the host cancels, the run in flight ends,
// the executor instances are destroyed and their pools' containers removed.
TEST_F(DockerCli, SigtermStopsThePoolsAndRemovesTheirContainers) {
    write_settings(R"(
presets: [{SCENARIO_NAME: normal}]
workflows:
  - name: slow
    executor: docker
    steps:
      - run: [/bin/sh, -c, "sleep 0.3; echo done"]
        expect: {stdout_contains: done}
)");
    const int pid = sbx::test::spawn_background(
        {SBX_BINARY, "--config", settings_, "--data-dir", dir_ + "/data", "run", "--runs", "200"},
        {}, dir_, dir_ + "/host.log");
    ASSERT_GE(wait_for_runs(2, std::chrono::seconds(60)), 2);
    const std::string filter = "--filter label=sandbox-runner.host-pid=" + std::to_string(pid);
    const auto before = sbx::test::run_command({"/bin/sh", "-c", "docker ps -aq " + filter});
    EXPECT_NE(before.out, "") << "the host has warm containers";
    ASSERT_EQ(kill(pid, SIGTERM), 0);
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 3);
    const auto after = sbx::test::run_command({"/bin/sh", "-c", "docker ps -aq " + filter});
    EXPECT_EQ(after.out, "") << "containers outlived the host";
}

// The network injector's namespace holds a docker target: it sees the injector's uplink
// (the address the injector reports), so the delay and loss applied there are its own.
TEST_F(DockerCli, TheNetworkInjectorsNamespaceHoldsADockerTarget) {
    write_settings(R"(
executor: docker
injectors: [network]
presets: [{SCENARIO_NAME: slow_net, NETWORK_LATENCY_MS: "50"}]
workflows:
  - name: net
    steps:
      - run: [/bin/sh, -c, 'ip -o addr']
)");
    const auto result = runner({"run", "--runs", "2", "--json"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const auto steps = query(
        "SELECT status, json_extract(result, '$.stdout'), "
        "json_extract(result, '$.injections.network.uplink.inside'), "
        "json_extract(result, '$.netns') FROM steps");
    ASSERT_EQ(steps.size(), 2U);
    for (const auto &step : steps) {
        EXPECT_EQ(step[0], "OK") << step[1];
        ASSERT_FALSE(step[2].empty()) << "the injector reported no uplink";
        EXPECT_NE(step[1].find("inet " + step[2] + "/"), std::string::npos)
            << "the target is not in the injector's namespace: " << step[1];
        EXPECT_EQ(step[3].rfind("/run/netns/sbx-", 0), 0U) << step[3];
    }
}

}  // namespace
