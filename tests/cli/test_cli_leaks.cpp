// Nothing leaks: 200 runs with every injector enabled and active (network namespace with
// delay and loss, fault proxy, CPU burners, premature kills, disk corruption, broken
// credentials, a tmpfs workspace, a CPU quota, concurrency copies), then check-resources
// finds nothing left: no namespace, burner, proxy, workspace or record. SBX_TEST_LEAK_RUNS
// sets the runs per preset (100 by default): tools/kernel-matrix runs fewer under emulation.
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli_fixture.hpp"
#include "machine.hpp"
#include "state_folder.hpp"

namespace {

using nlohmann::json;

class NothingLeaks : public sbx::test::CliTest {};

int runs_per_preset() {
    const char *runs = std::getenv("SBX_TEST_LEAK_RUNS");
    return runs != nullptr && std::atoi(runs) > 0 ? std::atoi(runs) : 100;
}

TEST_F(NothingLeaks, TwoHundredRunsWithEveryInjectorLeaveNothingBehind) {
    const std::string tmp = dir_ + "/tmp";
    std::filesystem::create_directories(tmp);
    write_settings(R"(
injectors: [cpu_spike, concurrency_spike, network, fault_proxy, timeout, disk_corruption,
            broken_auth]
presets:
  - {SCENARIO_NAME: everything, CPU_SPIKE: "1", NETWORK_LATENCY_MS: "2", PACKET_LOSS: "0.05",
     THREAD_BURST: "2", ASYNC_TASK_BURST: "2",
     UPSTREAM_FAILURES: "1", UPSTREAM_REQUESTS: "4", API_LATENCY_MS: "1", BROKEN_AUTH: "1",
     FAILURE_MODES: [timeout, disk_corruption], DISK_LIMIT: 8Mi, CPU_LIMIT: "1",
     CONCURRENCY_LEVEL: "2"}
  - {SCENARIO_NAME: partition, FAILURE_MODES: [network_partition]}
workflows:
  - name: busy
    upstreams: [{name: api, listen: "127.0.0.1:0", target: "127.0.0.1:9"}]
    steps:
      - run: [/bin/sh, -c, 'echo data > out.txt; echo "$API_TOKEN" > /dev/null']
        env: {API_TOKEN: secret-token-123}
        expect: {exit_code: any, status: OK}
)");
    const int runs = runs_per_preset();
    const auto ran =
        sbx::test::run_command({SBX_BINARY, "--config", settings_, "--data-dir", dir_ + "/data",
                                "run", "--runs", std::to_string(runs), "--json"},
                               {{"TMPDIR", tmp}}, dir_);
    ASSERT_EQ(ran.exit_code, 0) << ran.err;
    const json report = json::parse(ran.out);
    ASSERT_EQ(report["cells"].size(), 2u);
    for (const auto &cell : report["cells"]) {
        EXPECT_EQ(cell["runs"], runs);
    }
    // Every injector really took part.
    std::vector<std::string> active = report["cells"][0]["active_injectors"];
    for (const char *id : {"cpu_spike", "concurrency_spike", "network", "fault_proxy", "timeout",
                           "disk_corruption", "broken_auth"}) {
        EXPECT_NE(std::find(active.begin(), active.end(), id), active.end()) << id;
    }
    // Each run's record names the mechanism that made its packet faults.
    const auto mechanisms = query(
        "SELECT DISTINCT json_extract(steps.result, '$.injections.network.impairment') "
        "FROM steps JOIN runs ON runs.id = steps.run_id JOIN presets ON presets.id = "
        "runs.preset_id WHERE presets.name = 'everything'");
    ASSERT_EQ(mechanisms.size(), 1U);
    EXPECT_TRUE(mechanisms[0][0] == "netem" || mechanisms[0][0] == "nfqueue") << mechanisms[0][0];
    if (sbx::test::kernel_offers_netem()) {
        EXPECT_EQ(mechanisms[0][0], "netem") << "the kernel has sch_netem";
    }
    const auto left = sbx::test::run_command({SBX_BINARY, "--config", settings_, "--data-dir",
                                              dir_ + "/data", "check-resources", "--json"},
                                             {{"TMPDIR", tmp}}, dir_);
    EXPECT_EQ(left.exit_code, 0) << left.out << left.err;
    EXPECT_TRUE(json::parse(left.out)["left"].empty()) << left.out;
    EXPECT_TRUE(std::filesystem::is_empty(sbx::test::state_folder_in(tmp)))
        << "a workspace was left";
}

}  // namespace
