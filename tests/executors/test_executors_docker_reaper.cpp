// The pool's reaper thread and the purge at start, against the real engine: an idle
// container goes between runs, without a run asking (and not when the reaper is off); the
// instance's destruction stops the reaper however long its interval; a new host process
// removes a dead host's containers before its first run and reports them.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>

#include "docker_executor_fixture.hpp"

namespace sbx::docker_test {
namespace {

// True once `name` is gone (the generous deadline only bounds a failure).
bool gone(const std::string &name) {
    return test::wait_until([&] { return !exists(name); }, test::kGenerousDeadline,
                            std::chrono::milliseconds(100));
}

TEST_F(DockerExecutorTest, TheReaperRemovesAnIdleContainerBetweenRuns) {
    json reaping = config(true);
    reaping["idle_timeout_s"] = 0.3;
    reaping["cleanup_interval_s"] = 0.2;
    auto instance = docker_plugin()->create(reaping);
    const json first = run_on(*instance, spec({"true"}));
    const std::string name = first["container"];
    EXPECT_TRUE(gone(name)) << name << " outlived its idle timeout with no run";
    const json second = run_on(*instance, spec({"true"}));
    EXPECT_EQ(second["pool"], "new");
    EXPECT_EQ(second.value("cleanup", json::object()).value("cleanup_idle", 0.0), 1.0)
        << "the reaper's removal is reported by the next run: " << second.dump();
}

TEST_F(DockerExecutorTest, WithTheReaperOffAnIdleContainerWaitsForTheNextRun) {
    json still = config(true);
    still["idle_timeout_s"] = 0.3;
    still["cleanup_interval_s"] = 0;
    auto instance = docker_plugin()->create(still);
    const json first = run_on(*instance, spec({"true"}));
    // An absence can only be watched for: five idle timeouts long, past which a reaper
    // (had there been one) would have removed it.
    test::wait_past(Clock::now(), std::chrono::milliseconds(1500));
    EXPECT_TRUE(exists(first["container"])) << "no reaper: nothing removes it between runs";
    const json second = run_on(*instance, spec({"true"}));
    EXPECT_FALSE(exists(first["container"]));
    EXPECT_EQ(second.value("cleanup", json::object()).value("cleanup_idle", 0.0), 1.0);
}

TEST_F(DockerExecutorTest, DestroyingTheInstanceStopsAnHourlyReaper) {
    json hourly = config(true);
    hourly["cleanup_interval_s"] = 3600;
    std::string name;
    {
        auto instance = docker_plugin()->create(hourly);
        name = run_on(*instance, spec({"true"}))["container"];
        EXPECT_TRUE(exists(name));
    }  // would wait an hour (and the test time out) if the reaper did not wake to stop
    EXPECT_FALSE(exists(name));
}

// Starts a host process that runs one spec with `config` and waits to be killed; returns
// its pid and, through `result`, what its run printed.
int start_host(const json &config, const json &spec, const std::string &log, json &result) {
    const int pid = test::spawn_background(
        {SBX_DOCKER_CRASH_HOST_PATH, SBX_DOCKER_EXECUTOR_PATH, config.dump(), spec.dump()}, {}, "",
        log);
    // Its result comes after the log lines of its purge at start.
    const std::string line = test::wait_for_json_line(log);
    if (!line.empty()) {
        result = json::parse(line);
    }
    return pid;
}

TEST_F(DockerExecutorTest, ANewHostRemovesADeadHostsContainersBeforeItsFirstRun) {
    // A label of its own: no other test's host purges (or leaves) containers under it.
    json labelled = config(true);
    labelled["pool_label"] = "sbx-start-purge-" + std::to_string(::getpid());
    json dead_result;
    const int dead = start_host(labelled, spec({"true"}), state_dir_ + "/dead.log", dead_result);
    ASSERT_FALSE(dead_result.is_null()) << "the first host printed no result";
    ::kill(dead, SIGKILL);
    ::waitpid(dead, nullptr, 0);
    const std::string dead_name = dead_result["container"];
    ASSERT_TRUE(exists(dead_name)) << "a SIGKILLed host leaves its pooled container";

    json next_result;
    const int next = start_host(labelled, spec({"true"}), state_dir_ + "/next.log", next_result);
    ASSERT_FALSE(next_result.is_null()) << "the second host printed no result";
    EXPECT_EQ(next_result["status"], "OK") << next_result.dump();
    EXPECT_FALSE(exists(dead_name)) << "removed before the new host's first run";
    EXPECT_EQ(next_result.value("cleanup", json::object()).value("stale_containers_removed", 0.0),
              1.0)
        << next_result.dump();
    EXPECT_TRUE(exists(next_result["container"])) << "its own container is not stale";
    ::kill(next, SIGKILL);
    ::waitpid(next, nullptr, 0);

    // Off: the next host leaves them to purge-stale.
    labelled["purge_at_start"] = false;
    json third_result;
    const int third = start_host(labelled, spec({"true"}), state_dir_ + "/third.log", third_result);
    EXPECT_TRUE(exists(next_result["container"])) << "purge_at_start: false";
    EXPECT_FALSE(third_result.contains("cleanup")) << third_result.dump();
    ::kill(third, SIGKILL);
    ::waitpid(third, nullptr, 0);
    labelled["pool"] = false;
    auto sweeper = docker_plugin()->create(labelled);
    sweeper->sweep(json{{"state_dir", state_dir_}, {"dry_run", false}}.dump());
    EXPECT_FALSE(exists(next_result["container"]));
    EXPECT_FALSE(exists(third_result["container"]));
}

}  // namespace
}  // namespace sbx::docker_test
