// The docker executor end to end through the real binary: the same small workflow gives
// the same per-run result schema and the same ROI under local and docker (selected per
// workflow, and by SANDBOX_DOCKER=1), check-resources counts nothing left behind, and the
// network injector's namespace holds a docker target.
// Needs the real engine (tools/test starts it); fails, never skips, without it.
#include <signal.h>
#include <sys/wait.h>

#include <nlohmann/json.hpp>
#include <set>

#include "cli_fixture.hpp"

namespace {

using nlohmann::json;

// Passes except where the scenario names an input problem: the same verdicts on any
// executor whose /bin/sh runs it (the host's, or busybox in sbx-busybox:local).
constexpr const char *kWorkflow = R"yaml(
workflows:
  - name: small
    id: 7
EXECUTOR    steps:
      - name: greet
        run: [/bin/sh, -c, 'echo "hello $SCENARIO_NAME"; case "$SCENARIO_NAME" in hostile_input|schema_drift) exit 1;; esac']
        expect: {exit_code: 0}
)yaml";

class DockerCli : public sbx::test::CliTest {
  protected:
    void SetUp() override {
        CliTest::SetUp();
        const auto ping = sbx::test::run_command(
            {"/bin/sh", "-c",
             "curl -fsS --max-time 5 --unix-socket /var/run/docker.sock http://localhost/_ping"});
        ASSERT_EQ(ping.out, "OK") << "no Docker engine on /var/run/docker.sock; start it with "
                                     "tools/start-docker and build images with "
                                     "tools/build-test-images (tools/test does both)";
    }
    json scenarios(const std::string &executor_line) {
        std::string yaml = kWorkflow;
        yaml.replace(yaml.find("EXECUTOR"), 8, executor_line);
        write_settings(yaml);
        const auto result =
            runner({"run-scenarios", "7", "--repetitions", "2", "--seed", "3", "--json"});
        EXPECT_EQ(result.exit_code, 0) << result.err;
        return json::parse(result.out);
    }
    // The keys of every step result stored in the database.
    std::set<std::string> result_keys() {
        std::set<std::string> keys;
        for (const auto &row : query("SELECT result FROM steps")) {
            const json result = json::parse(row[0]);
            for (const auto &[key, value] : result.items()) {
                keys.insert(key);
            }
        }
        return keys;
    }
};

TEST_F(DockerCli, SameWorkflowSameRoiAndResultSchemaUnderLocalAndDocker) {
    const json local = scenarios("    executor: local\n");
    const auto local_keys = result_keys();
    std::filesystem::remove_all(dir_ + "/data");
    const json docker = scenarios("    executor: docker\n");
    const auto docker_keys = result_keys();

    ASSERT_EQ(local["order"], docker["order"]);
    for (const auto &name : local["order"]) {
        SCOPED_TRACE(name.get<std::string>());
        const auto &l = local["scenarios"][name.get<std::string>()];
        const auto &d = docker["scenarios"][name.get<std::string>()];
        EXPECT_DOUBLE_EQ(l["roi"].get<double>(), d["roi"].get<double>());
        EXPECT_DOUBLE_EQ(l["roi_delta"].get<double>(), d["roi_delta"].get<double>());
        EXPECT_EQ(l["passed"], d["passed"]);
    }
    EXPECT_EQ(local["worst_scenario"], docker["worst_scenario"]);
    // The ABI's fields are in both; docker adds its own (container, image, pool).
    for (const char *key :
         {"status", "exit_code", "signal", "wall_s", "cpu_user_s", "cpu_sys_s", "max_rss_kb",
          "stdout", "stderr", "stdout_bytes", "stderr_bytes", "stdout_truncated",
          "stderr_truncated", "limit", "limits_hit", "error", "run_id"}) {
        EXPECT_EQ(local_keys.count(key), 1U) << key;
        EXPECT_EQ(docker_keys.count(key), 1U) << key;
    }
    const auto images = query("SELECT DISTINCT json_extract(result, '$.image') FROM steps");
    ASSERT_EQ(images.size(), 1U);
    EXPECT_EQ(images[0][0], "sbx-busybox:local");
}

TEST_F(DockerCli, SandboxDockerSelectsDockerAndLeavesNothingBehind) {
    std::string yaml = kWorkflow;
    yaml.replace(yaml.find("EXECUTOR"), 8, "");
    write_settings(yaml);
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
