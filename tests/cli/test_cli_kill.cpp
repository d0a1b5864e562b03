// The store survives SIGKILL of the host mid-matrix: every completed run is there, whole,
// and the database passes its integrity check; the next run appends to it.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "cli_fixture.hpp"
#include "processes.hpp"

namespace {

class KilledHost : public sbx::test::CliTest {};

TEST_F(KilledHost, LeavesAnIntactDatabaseWithEveryCompletedRun) {
    write_settings(R"(
presets: [{SCENARIO_NAME: normal}]
workflows:
  - name: short
    steps:
      - run: [/bin/sh, -c, "sleep 0.02; echo done"]
        expect: {stdout_contains: done}
)");
    const int pid = sbx::test::spawn_background(
        {SBX_BINARY, "--config", settings_, "--data-dir", dir_ + "/data", "run", "--runs", "200"},
        // A SIGKILLed host leaves its workspace (documented): keep it in the test's folder.
        {{"TMPDIR", dir_}}, dir_, dir_ + "/host.log");
    // Wait until about half the runs are committed, then kill the host without warning.
    const int64_t seen = wait_for_runs(100, std::chrono::seconds(60));
    ASSERT_GE(seen, 100) << "the host did not get half way in 60 s";
    ASSERT_EQ(kill(pid, SIGKILL), 0);
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFSIGNALED(status));

    EXPECT_EQ(query("PRAGMA integrity_check")[0][0], "ok");
    const int64_t runs = std::stoll(query("SELECT count(*) FROM runs")[0][0]);
    EXPECT_GE(runs, seen) << "a committed run was lost";
    EXPECT_LT(runs, 200) << "the kill came too late to prove anything";
    // Whole runs only: each has its step and its metrics.
    EXPECT_EQ(query("SELECT count(*) FROM runs WHERE id NOT IN (SELECT run_id FROM steps)")[0][0],
              "0");
    EXPECT_EQ(query("SELECT count(*) FROM runs WHERE id NOT IN "
                    "(SELECT run_id FROM metrics WHERE run_id IS NOT NULL)")[0][0],
              "0");
    EXPECT_EQ(query("SELECT count(*) FROM runs WHERE passed = 1")[0][0], std::to_string(runs));
    EXPECT_EQ(query("SELECT status FROM sessions")[0][0], "running");

    // The next host opens the same database and appends.
    const auto again = runner({"run", "--runs", "3"});
    EXPECT_EQ(again.exit_code, 0) << again.err;
    EXPECT_EQ(std::stoll(query("SELECT count(*) FROM runs")[0][0]), runs + 3);
    // It also found the killed host's session and said so: crashed, and how far it got.
    EXPECT_EQ(query("SELECT status FROM sessions WHERE id = 1")[0][0], "crashed");
    EXPECT_EQ(query("SELECT ended_note FROM sessions WHERE id = 1")[0][0],
              "its host (pid " + std::to_string(pid) + ") ended without closing it, after " +
                  std::to_string(runs) + " committed runs and 0 cells");
    EXPECT_NE(again.err.find("session 1 marked crashed"), std::string::npos) << again.err;
}

}  // namespace

namespace {

class InterruptedHost : public sbx::test::CliTest {};

TEST_F(InterruptedHost, StopsOnSigintKeepsCompletedRunsAndLeavesNoProcess) {
    write_settings(R"(
presets: [{SCENARIO_NAME: normal}]
workflows:
  - name: slow
    steps:
      - run: [/bin/sh, -c, "sleep 0.2; echo done"]
        expect: {stdout_contains: done}
)");
    const int pid = sbx::test::spawn_background(
        {SBX_BINARY, "--config", settings_, "--data-dir", dir_ + "/data", "run", "--runs", "100"},
        {}, dir_, dir_ + "/host.log");
    const int64_t seen = wait_for_runs(3, std::chrono::seconds(30));
    ASSERT_GE(seen, 3);
    const auto interrupted_at = std::chrono::steady_clock::now();
    ASSERT_EQ(kill(pid, SIGINT), 0);
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    const double stop_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - interrupted_at).count();
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 3);
    EXPECT_LT(stop_s, 2.0) << "the run in flight is stopped, not waited for";
    std::ifstream log(dir_ + "/host.log");
    const std::string text((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("interrupted"), std::string::npos) << text;
    EXPECT_EQ(query("SELECT status FROM sessions")[0][0], "interrupted");
    const int64_t runs = std::stoll(query("SELECT count(*) FROM runs")[0][0]);
    EXPECT_GE(runs, seen);
    EXPECT_EQ(query("SELECT count(*) FROM runs WHERE passed = 1")[0][0], std::to_string(runs));
    EXPECT_EQ(query("PRAGMA integrity_check")[0][0], "ok");
    // No process of any run survives, the one interrupted mid-sleep included.
    for (const sbx::test::LiveProcess &process : sbx::test::live_processes()) {
        EXPECT_EQ(process.cmdline.find("sleep 0.2; echo done"), std::string::npos)
            << "process " << process.pid << " survived: " << process.cmdline;
    }
}

}  // namespace

namespace {

class CrashedHost : public sbx::test::CliTest {};

TEST_F(CrashedHost, TakesItsRunningTargetWithIt) {
    write_settings(R"(
presets: [{SCENARIO_NAME: normal}]
workflows:
  - name: long
    steps:
      - run: [/bin/sh, -c, "sleep 7.5 & sleep 7.25; echo done"]
)");
    const int pid = sbx::test::spawn_background(
        {SBX_BINARY, "--config", settings_, "--data-dir", dir_ + "/data", "run"},
        {{"TMPDIR", dir_}}, dir_, dir_ + "/host.log");  // its leftover workspace stays in dir_
    // Wait for the target to be running, then kill the host without warning.
    const auto target_alive = [] {
        return !sbx::test::processes_whose_cmdline_contains("sleep 7.5").empty() ||
               !sbx::test::processes_whose_cmdline_contains(std::string_view("sleep\0"
                                                                             "7.25",
                                                                             10))
                    .empty();
    };
    ASSERT_TRUE(sbx::test::wait_until(target_alive)) << "the target never started";
    ASSERT_EQ(kill(pid, SIGKILL), 0);
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(sbx::test::wait_until([&] { return !target_alive(); }))
        << "a run outlived its host";
}

}  // namespace
