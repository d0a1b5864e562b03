// The guarantees without root: the real binary run as an unprivileged user (nobody, when the
// test runs as root; the test's own user otherwise). A setsid'd, double-forked escapee leaves
// nothing; writing past DISK_LIMIT fails with ENOSPC; a memory hog under MEMORY_LIMIT ends
// OOM where a cgroup can hold it (root, or a delegated cgroup v2 subtree), and otherwise the
// command is refused before any run, naming the limit and what to do — never a silently
// different status. Network faults work too: the run's network namespace is owned by a user
// namespace of the network injector's, which the executor joins.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli_fixture.hpp"
#include "processes.hpp"

namespace {

using nlohmann::json;

// Host PIDs of live processes whose command line contains `token`.
std::vector<std::string> processes_with(const std::string &token) {
    std::vector<std::string> found;
    for (sbx::test::LiveProcess &process : sbx::test::live_processes()) {
        std::replace(process.cmdline.begin(), process.cmdline.end(), '\0', ' ');
        if (process.cmdline.find(token) != std::string::npos) {
            found.push_back(std::to_string(process.pid) + ": " + process.cmdline);
        }
    }
    return found;
}

class Rootless : public sbx::test::CliTest {
  protected:
    Rootless() : CliTest(RunBy::others_too) {}

    void SetUp() override {
        CliTest::SetUp();
        std::filesystem::create_directories(dir_ + "/tmp");
        token_ = std::to_string(7000000 + ::getpid() % 1000000);
        write_settings(R"(
presets:
  - {SCENARIO_NAME: plain}
workflows:
  - name: escape
    steps:
      - run: [/bin/sh, -c, '(setsid sh -c "sleep )" +
                       token_ + R"( & sleep )" + token_ + R"(" &) ; echo started']
        expect: {stdout_contains: started}
  - name: fill
    steps:
      - run: [/bin/sh, -c, 'dd if=/dev/zero of=big bs=1M count=32 2>&1; echo dd-exit=$?']
        expect: {stdout_contains: dd-exit=0}
  - name: hog
    steps:
      - run: [python3, -c, 'b = b"x" * (512 << 20); print(len(b))']
  - name: fetch
    services:
      - name: api
        run: [python3, -m, http.server, "{{port}}", --bind, 127.0.0.1]
        ready: {http: /}
    steps:
      - run: [python3, -c, 'import os, time, urllib.request as r; t = time.monotonic(); r.urlopen("http://" + os.environ["SANDBOX_UPSTREAM_API"] + "/", timeout=10).read(); print("fetch_ms=%.1f" % ((time.monotonic() - t) * 1000))']
)");
        give_to_nobody(dir_);
        give_to_nobody(dir_ + "/tmp");
        give_to_nobody(settings_);
    }

    // A preset file of the unprivileged user's; returns its path.
    std::string write_preset(const std::string &name, const std::string &json_text) {
        std::string path = write_file(name, json_text);
        give_to_nobody(path);
        return path;
    }

    // sandbox-runner ARGS as the unprivileged user, with its own TMPDIR.
    sbx::test::CommandResult unprivileged(const std::vector<std::string> &args) {
        return runner_as(true, args);
    }

    std::string step_result_field(const std::string &field) {
        const auto rows = query("SELECT json_extract(steps.result, '$." + field +
                                "') FROM steps ORDER BY steps.rowid DESC LIMIT 1");
        return rows.empty() ? "" : rows[0][0];
    }

    std::string token_;
};

TEST_F(Rootless, DoubleForkedEscapeeLeavesNoProcess) {
    const auto ran = unprivileged({"run", "--workflow", "escape", "--runs", "2", "--json"});
    ASSERT_EQ(ran.exit_code, 0) << ran.err << ran.out;
    EXPECT_EQ(step_result_field("user_namespace"), "1");  // json_extract's true
    EXPECT_EQ(step_result_field("isolation"), "pid_namespace");
    EXPECT_TRUE(processes_with("sleep " + token_).empty())
        << "survivors: " << ::testing::PrintToString(processes_with("sleep " + token_));
}

TEST_F(Rootless, WritingPastTheDiskLimitFailsWithEnospc) {
    const std::string preset =
        write_preset("fill.json", R"({"SCENARIO_NAME": "small_disk", "DISK_LIMIT": "8Mi"})");
    const auto ran = unprivileged({"run", "--workflow", "fill", "--preset-file", preset, "--json"});
    ASSERT_EQ(ran.exit_code, 0) << ran.err << ran.out;
    EXPECT_EQ(step_result_field("status"), "OK");  // dd's own exit code is what it reports
    const std::string out = step_result_field("stdout");
    EXPECT_NE(out.find("No space left on device"), std::string::npos) << out;
    EXPECT_NE(out.find("dd-exit=1"), std::string::npos) << out;
    EXPECT_EQ(step_result_field("enforcement.disk"), "tmpfs");
}

TEST_F(Rootless, MemoryHogEndsOomOrIsRefusedBeforeAnyRun) {
    const std::string preset =
        write_preset("hog.json", R"({"SCENARIO_NAME": "small_memory", "MEMORY_LIMIT": "64Mi"})");
    const auto ran = unprivileged({"run", "--workflow", "hog", "--preset-file", preset, "--json"});
    if (ran.exit_code == 2) {
        // No cgroup for this user: said up front, with the limit and what to do.
        EXPECT_NE(ran.err.find("memory"), std::string::npos) << ran.err;
        EXPECT_NE(ran.err.find("Delegate=yes"), std::string::npos) << ran.err;
        EXPECT_NE(ran.err.find("allow_limit_downgrades"), std::string::npos) << ran.err;
        EXPECT_FALSE(std::filesystem::exists(db_path()) &&
                     query("SELECT count(*) FROM runs")[0][0] != "0")
            << "a run was recorded before the refusal";
        return;
    }
    ASSERT_EQ(ran.exit_code, 0) << ran.err << ran.out;
    EXPECT_EQ(step_result_field("status"), "OOM") << step_result_field("stdout");
}

// The fetch time a `fetch` run printed, or -1.
double fetch_ms(const std::string &stdout_text) {
    const auto at = stdout_text.find("fetch_ms=");
    return at == std::string::npos ? -1 : std::stod(stdout_text.substr(at + 9));
}

TEST_F(Rootless, NetworkLatencySlowsALoopbackUpstreamFetchAndAPartitionCutsIt) {
    const auto fetch = [&](const std::string &preset_json) {
        const std::string preset = write_preset("fetch.json", preset_json);
        const auto ran =
            unprivileged({"run", "--workflow", "fetch", "--preset-file", preset, "--json"});
        EXPECT_NE(ran.exit_code, 2) << ran.err;
    };
    fetch(R"({"SCENARIO_NAME": "plain"})");
    const double plain_ms = fetch_ms(step_result_field("stdout"));
    ASSERT_GE(plain_ms, 0) << step_result_field("stdout") << step_result_field("stderr");

    fetch(R"({"SCENARIO_NAME": "slow", "NETWORK_LATENCY_MS": "50"})");
    EXPECT_EQ(step_result_field("user_namespace"), "1");
    EXPECT_EQ(step_result_field("netns").rfind("/proc/", 0), 0U)
        << "a namespace of the user's own, not a named one: " << step_result_field("netns");
    const double slow_ms = fetch_ms(step_result_field("stdout"));
    std::cout << "[ measured  ] loopback upstream fetch: " << plain_ms << " ms plain, " << slow_ms
              << " ms under NETWORK_LATENCY_MS 50\n";
    // Two round trips (the handshake, then the request), each 50 ms more: a lower bound no
    // fast machine can beat without the latency. (Not a difference with the plain fetch: in
    // an emulated guest the plain one alone varies by tens of milliseconds.)
    EXPECT_GE(slow_ms, 100.0) << step_result_field("stderr");

    fetch(R"({"SCENARIO_NAME": "cut", "FAILURE_MODES": ["network_partition"]})");
    EXPECT_NE(step_result_field("status"), "OK") << step_result_field("stdout");
    EXPECT_NE(step_result_field("stderr").find("Connection refused"), std::string::npos)
        << step_result_field("stderr");
}

// Where no user namespace can be made (user.max_user_namespaces 0, set inside a user
// namespace of the test's own so that nothing else on the machine sees it), a preset with a
// network fault is refused before any run, saying what to enable; nothing is recorded.
TEST_F(Rootless, WithoutUserNamespacesANetworkFaultIsRefusedBeforeAnyRun) {
    const std::string preset =
        write_preset("slow.json", R"({"SCENARIO_NAME": "slow", "NETWORK_LATENCY_MS": "50"})");
    std::vector<std::string> argv;
    if (::geteuid() == 0) {
        argv = {"/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                "--inh-caps=-all"};
    }
    argv.insert(argv.end(), {"/usr/bin/unshare", "--user", "--map-root-user", "/bin/sh", "-c",
                             "echo 0 > /proc/sys/user/max_user_namespaces && exec \"$@\"", "sh",
                             binary_, "--config", settings_, "--data-dir", dir_ + "/data", "run",
                             "--workflow", "fetch", "--preset-file", preset});
    const auto ran =
        sbx::test::run_command(argv, {{"TMPDIR", dir_ + "/tmp"}, {"HOME", dir_}}, dir_);
    EXPECT_EQ(ran.exit_code, 2) << ran.out << ran.err;
    EXPECT_NE(ran.err.find("preset 'slow' cannot run here: the network injector"),
              std::string::npos)
        << ran.err;
    EXPECT_NE(ran.err.find("user.max_user_namespaces"), std::string::npos) << ran.err;
    EXPECT_FALSE(std::filesystem::exists(db_path()) &&
                 query("SELECT count(*) FROM runs")[0][0] != "0")
        << "a run was recorded before the refusal";
}

}  // namespace
