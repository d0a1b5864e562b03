// A workflow's `services:` end to end, with real services: Python's http.server started for
// each run, reached with curl from the network injector's namespace through the fault proxy
// (latency adds up, a partition cuts it off), a service that dies mid-run, one that is never
// ready, and a SIGKILLed host whose service's children purge-stale stops.
#include <signal.h>
#include <sys/wait.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_fixture.hpp"

namespace {

using nlohmann::json;

// Processes whose working directory is below `folder` (a service's folder lies there).
int processes_in(const std::string &folder) {
    int count = 0;
    std::error_code ec;
    for (std::filesystem::directory_iterator it("/proc", ec), end; !ec && it != end;
         it.increment(ec)) {
        std::error_code unreadable;
        const auto cwd = std::filesystem::read_symlink(it->path() / "cwd", unreadable);
        if (!unreadable && cwd.string().rfind(folder, 0) == 0) {
            ++count;
        }
    }
    return count;
}

class Services : public sbx::test::CliTest {};

TEST_F(Services, AnHttpServiceIsReachedThroughLatencyAndCutOffByAPartition) {
    ASSERT_EQ(::geteuid(), 0U) << "the network injector makes network namespaces: run as root";
    // Fault scenarios run --repetitions (2) times, not the default 13: the counts below.
    write_settings(R"(
robustness_repetitions: 1
injectors: [network, fault_proxy]
scenarios:
  - {name: normal}
  - name: high_latency_api
    preset: {NETWORK_LATENCY_MS: 50, API_LATENCY_MS: 100}
  - name: network_partition
    preset: {FAILURE_MODES: network_partition}
workflows:
  - name: web
    services:
      - name: api
        run: [python3, -m, http.server, "{{port}}", --bind, 127.0.0.1]
        ready: {http: /}
        ready_timeout_ms: 60000  # python on a machine busy with other tests
    steps:
      - run: [/bin/sh, -c, 'curl -sS -f --max-time 5 -o /dev/null -w "%{time_total}" "http://$SANDBOX_UPSTREAM_API/"']
)");
    const auto result = runner(
        {"run-scenarios", "web", "--repetitions", "2", "--seed", "1", "--workers", "2", "--json"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const json summary = json::parse(result.out);
    const auto &scenarios = summary["scenarios"];
    EXPECT_DOUBLE_EQ(scenarios["normal"]["roi"].get<double>(), 1.0) << result.out;
    EXPECT_DOUBLE_EQ(scenarios["high_latency_api"]["roi"].get<double>(), 1.0) << result.out;
    EXPECT_DOUBLE_EQ(scenarios["network_partition"]["roi"].get<double>(), 0.0) << result.out;

    // Under latency every fetch took the namespace's round trips (handshake and request)
    // and the proxy's hold of the request: at least 2 × 50 + 100 ms.
    const auto rows = query(
        "SELECT p.name, json_extract(s.result, '$.stdout'), json_extract(s.result, "
        "'$.services.api.stderr') FROM runs r JOIN steps s ON s.run_id = r.id JOIN presets p "
        "ON p.id = r.preset_id WHERE r.flag = 'on' ORDER BY p.name, r.id");
    ASSERT_EQ(rows.size(), 6U);
    for (const auto &row : rows) {
        SCOPED_TRACE(row[0] + ": " + row[1]);
        if (row[0] == "high_latency_api") {
            EXPECT_GE(std::stod(row[1]), 0.200);
        }
        // The service's own log is in the run record: http.server logs each request it
        // answered, and none came through the partition.
        EXPECT_EQ(row[2].find("\"GET / HTTP/1.1\" 200") != std::string::npos,
                  row[0] != "network_partition")
            << row[2];
    }
    // Every service was stopped with its run.
    EXPECT_EQ(processes_in(dir_ + "/data/state/services"), 0);
    EXPECT_TRUE(std::filesystem::is_empty(dir_ + "/data/state/services"));
}

// service_scope: cell: one start serves every on-run of the cell, on both workers, until the
// cell is finished (a worker that runs out of work does not take the service with it).
TEST_F(Services, ACellSharesOneServiceAcrossItsRunsAndWorkers) {
    const std::string starts = dir_ + "/starts";
    write_settings(R"(
scenarios: [{name: normal}, {name: slow, preset: {API_LATENCY_MS: 20}}]
workflows:
  - name: web
    service_scope: cell
    services:
      - name: api
        run: [/bin/sh, -c, 'echo started >> ")" +
                   starts +
                   R"("; exec python3 -m http.server "$SANDBOX_SERVICE_PORT" --bind 127.0.0.1']
        ready: {http: /}
        ready_timeout_ms: 60000  # python on a machine busy with other tests
    steps:
      - run: [/bin/sh, -c, 'curl -sS -f --max-time 5 -o /dev/null "http://$SANDBOX_UPSTREAM_API/"']
)");
    const auto result = runner(
        {"run-scenarios", "web", "--repetitions", "6", "--seed", "1", "--workers", "2", "--json"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const json summary = json::parse(result.out);
    EXPECT_DOUBLE_EQ(summary["scenarios"]["normal"]["roi"].get<double>(), 1.0) << result.out;
    EXPECT_DOUBLE_EQ(summary["scenarios"]["slow"]["roi"].get<double>(), 1.0) << result.out;
    // One start per on-cell; the off-cells start none.
    std::ifstream in(starts);
    const std::string lines((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(lines, "started\nstarted\n");
    EXPECT_EQ(processes_in(dir_ + "/data/state/services"), 0);
}

// A service of the system that dies fails the step (the system's failure); one that never
// becomes ready is an error of the setup, tried again and then no verdict: inconclusive.
TEST_F(Services, AServiceThatDiesFailsTheStepAndOneNeverReadyIsAnErrorSayingWhy) {
    write_settings(R"(
scenarios: [{name: normal}]
workflows:
  - name: dies
    services:
      - name: flaky
        run: [/bin/sh, -c, 'sleep 0.3; echo giving up >&2; exit 3']
        ready: {command: ["true"]}
    steps:
      - name: wait
        run: [/bin/sleep, "2"]
  - name: never
    services:
      - name: silent
        run: [/bin/sleep, "30"]
        ready_timeout_ms: 300
    steps:
      - run: ["true"]
)");
    const auto died = runner({"run-scenarios", "dies", "--repetitions", "1", "--json"});
    // Its only scenario is normal, and its run failed: the workflow is broken (exit 1).
    ASSERT_EQ(died.exit_code, 1) << died.err;
    EXPECT_EQ(json::parse(died.out)["status"], "broken") << died.out;
    const auto failure = on_steps(
        "s.status, json_extract(s.result, '$.error'), "
        "json_extract(s.result, '$.services.flaky.stderr')");
    ASSERT_EQ(failure.size(), 1U);
    EXPECT_EQ(failure[0][1], "service 'flaky' exited with 3 during step 'wait'");
    EXPECT_EQ(failure[0][2], "giving up\n");

    const auto never = runner({"run-scenarios", "never", "--repetitions", "1", "--json"});
    ASSERT_EQ(never.exit_code, 1) << never.err;
    const json verdict = json::parse(never.out);
    EXPECT_EQ(verdict["status"], "inconclusive") << never.out;
    EXPECT_NE(verdict["scenarios"]["normal"]["inconclusive"].get<std::string>().find(
                  "service 'silent' is not ready after 300 ms"),
              std::string::npos)
        << never.out;
    const auto timeout = query(
        "SELECT json_extract(s.result, '$.error') FROM runs r JOIN steps s ON s.run_id = r.id "
        "WHERE r.flag = 'on' AND r.workflow = 'never'");
    ASSERT_EQ(timeout.size(), 1U);
    EXPECT_EQ(timeout[0][0],
              "service 'silent' is not ready after 300 ms (ready_timeout_ms); no output");
    EXPECT_EQ(processes_in(dir_ + "/data/state/services"), 0);
}

TEST_F(Services, WhatASigkilledHostsServiceStartedIsPurged) {
    // The service's leader dies with the host; the sleep it started in its group does not.
    write_settings(R"(
scenarios: [{name: normal}]
workflows:
  - name: long
    services:
      - name: keeper
        run: [/bin/sh, -c, '/bin/sleep 300 & exec /bin/sleep 301']
        ready: {command: ["true"]}
    steps:
      - run: [/bin/sleep, "30"]
)");
    const std::string services = dir_ + "/data/state/services";
    const int pid =
        sbx::test::spawn_background({SBX_BINARY, "--config", settings_, "--data-dir",
                                     dir_ + "/data", "run-scenarios", "long", "--repetitions", "1"},
                                    {}, dir_, dir_ + "/host.log");
    ASSERT_TRUE(sbx::test::wait_until([&] { return processes_in(services) == 2; }))
        << "the service never started";
    ASSERT_EQ(::kill(pid, SIGKILL), 0);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(sbx::test::wait_until([&] { return processes_in(services) == 1; }))
        << "the service's leader outlived its host";

    const auto listed = runner({"check-resources"});
    EXPECT_EQ(listed.exit_code, 1) << listed.out << listed.err;
    EXPECT_NE(
        listed.out.find("left service: keeper of host " + std::to_string(pid) + ": 1 process(es)"),
        std::string::npos)
        << listed.out;
    const auto purged = runner({"purge-stale"});
    EXPECT_EQ(purged.exit_code, 0) << purged.err;
    EXPECT_TRUE(sbx::test::wait_until([&] { return processes_in(services) == 0; }));
    EXPECT_TRUE(std::filesystem::is_empty(services));
    EXPECT_EQ(runner({"check-resources"}).exit_code, 0);
}

}  // namespace
