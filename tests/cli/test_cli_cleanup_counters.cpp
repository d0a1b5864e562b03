// Cleanup counters end to end, through the real binary and a real metrics.db: a third-party
// executor built with only the SDK reports them (run results' `cleanup`, sweep responses'
// `counters`), and so does the docker executor against the real engine — a container past
// its lifetime, and a SIGKILLed host's pool purged by purge-stale.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_fixture.hpp"

namespace {

using nlohmann::json;

class CleanupCounters : public sbx::test::CliTest {
  protected:
    // The value of a counter in metrics.db, or -1 when the table has no such row.
    double counter(const std::string &name) {
        const auto rows = query("SELECT value FROM cleanup_counters WHERE name = '" + name + "'");
        return rows.empty() ? -1 : std::stod(rows[0][0]);
    }
};

class ReportingExecutor : public CleanupCounters {
  protected:
    void SetUp() override {
        CleanupCounters::SetUp();
        plugin_dir_ = dir_ + "/plugins";
        std::filesystem::create_directories(plugin_dir_);
        const auto build = sbx::test::run_command(
            {SBX_CXX, "-std=c++17", "-shared", "-fPIC", "-fvisibility=hidden", "-Wall", "-Werror",
             "-I", SBX_SDK_INCLUDE,
             "-Wl,--version-script=" SBX_SDK_INCLUDE "/../cmake/sbx_plugin.map", "-Wl,-z,defs",
             SBX_CLEANUP_REPORTER, "-o", plugin_dir_ + "/cleanup_reporter.so"});
        ASSERT_EQ(build.exit_code, 0) << build.err;
        write_settings(R"(
executor: cleanup_reporter
presets: [{SCENARIO_NAME: normal}]
workflows:
  - name: t
    steps: [{run: [/bin/true]}]
)");
    }
    sbx::test::CommandResult command(const std::vector<std::string> &args) {
        std::vector<std::string> argv = {SBX_BINARY,     "--config",     settings_,  "--data-dir",
                                         dir_ + "/data", "--plugin-dir", plugin_dir_};
        argv.insert(argv.end(), args.begin(), args.end());
        return sbx::test::run_command(argv, {}, dir_);
    }
    std::string plugin_dir_;
};

TEST_F(ReportingExecutor, RunResultsAndSweepsAddUpInMetricsDbAndBadValuesAreSkipped) {
    const auto run = command({"run", "--runs", "3", "--json"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_DOUBLE_EQ(counter("cleanup_idle"), 6.0) << "2 per run, summed over 3 runs";
    EXPECT_DOUBLE_EQ(counter("cleanup_duration_seconds_cleanup"), 0.25) << "a gauge: the latest";
    EXPECT_EQ(counter("not_a_number"), -1);
    EXPECT_EQ(counter("negative"), -1);
    EXPECT_EQ(query("SELECT count(*) FROM cleanup_counters")[0][0], "2");
    EXPECT_NE(run.err.find("'not_a_number': \"three\" is not a finite number"), std::string::npos)
        << run.err;
    EXPECT_NE(run.err.find("'bad name'"), std::string::npos) << run.err;

    // A dry run lists but adds nothing, even though the plugin reports counters.
    const auto listed = command({"check-resources", "--json"});
    EXPECT_EQ(listed.exit_code, 1) << listed.err;
    const json left = json::parse(listed.out);
    EXPECT_EQ(left["counters"],
              json({{"cleanup_idle", 6.0}, {"cleanup_duration_seconds_cleanup", 0.25}}))
        << listed.out;
    EXPECT_EQ(counter("stale_vms_removed"), -1);

    for (int purge = 1; purge <= 2; ++purge) {
        const auto purged = command({"purge-stale", "--json"});
        EXPECT_EQ(purged.exit_code, 0) << purged.err;
        EXPECT_DOUBLE_EQ(json::parse(purged.out)["counters"]["stale_vms_removed"].get<double>(),
                         3.0 * purge)
            << purged.out;
        EXPECT_NE(purged.err.find("'cleanup_failures': \"x\""), std::string::npos) << purged.err;
    }
    EXPECT_DOUBLE_EQ(counter("stale_vms_removed"), 6.0);
    EXPECT_EQ(counter("cleanup_failures"), -1);

    const auto text = command({"check-resources"});
    EXPECT_NE(text.out.find("\ncounters: cleanup_duration_seconds_cleanup=0.25 cleanup_idle=6 "
                            "stale_vms_removed=6\n"),
              std::string::npos)
        << text.out;
    const auto stats = command({"show-cleanup-stats", "--json"});
    ASSERT_EQ(stats.exit_code, 0) << stats.err;
    const json counters = json::parse(stats.out)["counters"];
    EXPECT_DOUBLE_EQ(counters["stale_vms_removed"]["value"].get<double>(), 6.0) << stats.out;
    EXPECT_FALSE(counters["cleanup_idle"]["updated_at"].get<std::string>().empty());
}

TEST_F(CleanupCounters, CleanupStatsWithoutADatabaseCreatesNone) {
    write_settings("presets: [{SCENARIO_NAME: normal}]\n");
    const auto stats = runner({"show-cleanup-stats"});
    EXPECT_EQ(stats.exit_code, 0) << stats.err;
    EXPECT_NE(stats.out.find("no cleanup counters in"), std::string::npos) << stats.out;
    EXPECT_FALSE(std::filesystem::exists(db_path()));
}

class DockerCounters : public CleanupCounters {
  protected:
    void SetUp() override {
        CleanupCounters::SetUp();
        const auto ping = sbx::test::run_command(
            {"/bin/sh", "-c",
             "curl -fsS --max-time 5 --unix-socket /var/run/docker.sock http://localhost/_ping"});
        ASSERT_EQ(ping.out, "OK") << "no Docker engine on /var/run/docker.sock; start it with "
                                     "tools/start-docker (tools/test does)";
    }
};

// The first step outlives SANDBOX_CONTAINER_MAX_LIFETIME in its pooled container; the
// second step's acquire removes that container, its result says so, and metrics.db counts it.
TEST_F(DockerCounters, AContainerPastItsLifetimeIsCountedInMetricsDb) {
    write_settings(R"(
executor: docker
presets: [{SCENARIO_NAME: normal}]
workflows:
  - name: aging
    steps:
      - run: [/bin/sh, -c, "sleep 1"]
      - run: [/bin/true]
)");
    const auto result = sbx::test::run_command({SBX_BINARY, "--config", settings_, "--data-dir",
                                                dir_ + "/data", "run", "--runs", "1", "--json"},
                                               {{"SANDBOX_CONTAINER_MAX_LIFETIME", "0.5"}}, dir_);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_DOUBLE_EQ(counter("cleanup_lifetime"), 1.0);
    const auto reported = query(
        "SELECT position, json_extract(result, '$.cleanup.cleanup_lifetime') FROM steps "
        "ORDER BY position");
    ASSERT_EQ(reported.size(), 2U);
    EXPECT_EQ(reported[0][1], "") << "nothing removed before step 1";
    EXPECT_EQ(reported[1][1], "1.0") << "step 2's result carries the removal";
    const auto listed = runner({"check-resources", "--json"});
    EXPECT_DOUBLE_EQ(json::parse(listed.out)["counters"]["cleanup_lifetime"].get<double>(), 1.0)
        << listed.out;
}

TEST_F(DockerCounters, PurgeStaleCountsTheContainersOfAKilledHost) {
    std::string yaml = R"(
executor: docker
presets: [{SCENARIO_NAME: normal}]
workflows:
  - name: slow
    steps: [{run: [/bin/sh, -c, "sleep 0.1"]}]
plugins:
  # A label of its own: other tests' sweeps, running at the same time, must not count (or
  # remove) this test's dead host's containers.
  docker: {pool_label: LABEL}
)";
    yaml.replace(yaml.find("LABEL"), 5, "sbx-purge-count-" + std::to_string(::getpid()));
    write_settings(yaml);
    const int host =
        sbx::test::spawn_background({SBX_BINARY, "--config", settings_, "--data-dir",
                                     dir_ + "/data", "run", "--runs", "500", "--workers", "2"},
                                    {}, dir_, dir_ + "/host.log");
    ASSERT_GE(wait_for_runs(4, std::chrono::seconds(60)), 4);
    ASSERT_EQ(::kill(host, SIGKILL), 0);
    ASSERT_EQ(::waitpid(host, nullptr, 0), host);

    const auto purged = runner({"purge-stale", "--json"});
    ASSERT_EQ(purged.exit_code, 0) << purged.out << purged.err;
    const json report = json::parse(purged.out);
    int containers = 0;
    for (const auto &item : report["removed"]) {
        containers +=
            item["kind"] == "docker" && item["what"].get<std::string>().rfind("container ", 0) == 0;
    }
    EXPECT_GE(containers, 1) << "the killed host's warm containers" << purged.out;
    EXPECT_DOUBLE_EQ(counter("stale_containers_removed"), containers) << purged.out;
    EXPECT_DOUBLE_EQ(report["counters"]["stale_containers_removed"].get<double>(), containers);
    // Nothing of that host's is left, and a second purge counts nothing more.
    const auto again = runner({"purge-stale", "--json"});
    EXPECT_DOUBLE_EQ(counter("stale_containers_removed"), containers) << again.out;
}

}  // namespace
