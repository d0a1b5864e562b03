// The docker executor's cleanup counters, against the real engine: every removal the pool
// makes is reported once, in the next run result's `cleanup` (docs/abi.md), with its reason —
// idle, lifetime, a failed health check, the container limit, a timeout's kill — and the sweep
// reports the dead hosts' containers it removed in `counters`.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>

#include "docker_executor_fixture.hpp"
#include "wait.hpp"

namespace sbx::docker_test {
namespace {

double reported(const json &result, const char *name) {
    return result.value("cleanup", json::object()).value(name, 0.0);
}

TEST_F(DockerExecutorTest, AnIdleContainerIsReportedOnceAsCleanupIdle) {
    json idle_config = config(true);
    idle_config["idle_timeout_s"] = 0.2;
    auto instance = docker_plugin()->create(idle_config);
    const json first = run_on(*instance, spec({"true"}));
    const auto idle_since = Clock::now();
    EXPECT_FALSE(first.contains("cleanup")) << "nothing removed yet: " << first.dump();
    test::wait_past(idle_since, std::chrono::milliseconds(200));
    const json second = run_on(*instance, spec({"true"}));
    EXPECT_EQ(second["pool"], "new");
    EXPECT_EQ(reported(second, "cleanup_idle"), 1.0) << second.dump();
    EXPECT_TRUE(second["cleanup"].contains("cleanup_duration_seconds_cleanup")) << second.dump();
    const json third = run_on(*instance, spec({"true"}));
    EXPECT_FALSE(third.contains("cleanup")) << "a delta is reported once: " << third.dump();
}

TEST_F(DockerExecutorTest, AContainerOverItsLifetimeIsReportedAsCleanupLifetime) {
    json old_config = config(true);
    old_config["idle_timeout_s"] = 0;  // off: only age counts
    old_config["max_lifetime_s"] = 0.3;
    auto instance = docker_plugin()->create(old_config);
    run_on(*instance, spec({"sleep", "0.6"}));
    const json second = run_on(*instance, spec({"true"}));
    EXPECT_EQ(reported(second, "cleanup_lifetime"), 1.0) << second.dump();
    EXPECT_EQ(reported(second, "cleanup_idle"), 0.0) << second.dump();
}

TEST_F(DockerExecutorTest, AContainerKilledBehindThePoolsBackIsReportedAsCleanupUnhealthy) {
    auto instance = docker_plugin()->create(config(true));
    const json first = run_on(*instance, spec({"true"}));
    const auto idle_since = Clock::now();
    const std::string container = first["container"];
    docker("kill " + container);
    EXPECT_TRUE(test::wait_until([&] { return !running(container); })) << container;
    // Past the idle time after which the pool inspects a container before reusing it (its
    // rule: 2 s), counted from the end of the run that last used it.
    test::wait_past(idle_since, std::chrono::seconds(2));
    const json second = run_on(*instance, spec({"true"}));
    EXPECT_EQ(second["status"], "OK") << second.dump();
    EXPECT_EQ(second["pool"], "new");
    EXPECT_EQ(reported(second, "cleanup_unhealthy"), 1.0) << second.dump();
}

TEST_F(DockerExecutorTest, TheContainerLimitAndATimeoutsKillAreReported) {
    json one = config(true);
    one["max_containers"] = 1;
    auto instance = docker_plugin()->create(one);
    run_on(*instance, spec({"true"}));
    // Other limits need another container: the limit is reached, the idle one makes room.
    const json b = run_on(*instance, spec({"true"}, {{"memory_bytes", 32 << 20}}));
    EXPECT_EQ(reported(b, "active_container_limit_reached"), 1.0) << b.dump();

    // The agent kills the run's processes; the container stays for the next run.
    const json slow = run_on(*instance, spec({"sleep", "30"}, {{"timeout_ms", 500}}));
    EXPECT_EQ(slow["status"], "TO") << slow.dump();
    EXPECT_EQ(reported(slow, "force_kills"), 1.0) << slow.dump();
    EXPECT_TRUE(running(slow["container"].get<std::string>())) << slow.dump();

    // An exec cannot be killed alone: the container goes with it.
    json by_exec = config(true);
    by_exec["pool_transport"] = "exec";
    auto exec_instance = docker_plugin()->create(by_exec);
    const json exec_slow = run_on(*exec_instance, spec({"sleep", "30"}, {{"timeout_ms", 500}}));
    EXPECT_EQ(exec_slow["status"], "TO") << exec_slow.dump();
    EXPECT_EQ(reported(exec_slow, "force_kills"), 1.0) << exec_slow.dump();
    EXPECT_FALSE(exists(exec_slow["container"].get<std::string>())) << exec_slow.dump();

    auto alone = docker_plugin()->create(config(false));
    const json once = run_on(*alone, spec({"sleep", "30"}, {{"timeout_ms", 500}}));
    EXPECT_EQ(once["status"], "TO") << once.dump();
    EXPECT_EQ(reported(once, "force_kills"), 1.0) << once.dump();
}

TEST_F(DockerExecutorTest, TheSweepCountsTheDeadHostsContainersItRemoves) {
    // A label of its own: other tests' sweeps, running at the same time, must not see (and
    // count, or remove) this test's dead host.
    json labelled = config(true);
    labelled["pool_label"] = "sbx-sweep-count-" + std::to_string(::getpid());
    const std::string dead_name = crash_host_container(labelled);
    ASSERT_FALSE(dead_name.empty()) << "the crash host printed no result";

    labelled["pool"] = false;
    auto sweeper = docker_plugin()->create(labelled);
    const json listed =
        json::parse(sweeper->sweep(json{{"state_dir", state_dir_}, {"dry_run", true}}.dump()));
    EXPECT_EQ(listed.value("counters", json::object()), json::object()) << "a dry run removes none";
    const json removed =
        json::parse(sweeper->sweep(json{{"state_dir", state_dir_}, {"dry_run", false}}.dump()));
    int containers = 0;
    for (const auto &line : removed["removed"]) {
        containers += line.get<std::string>().rfind("container ", 0) == 0;
    }
    EXPECT_EQ(containers, 1) << removed.dump();
    EXPECT_EQ(removed["counters"].value("stale_containers_removed", 0.0), containers)
        << removed.dump();
    EXPECT_TRUE(removed["counters"].contains("cleanup_duration_seconds_reaper")) << removed.dump();
    EXPECT_EQ(docker("ps -aq --filter name=^/" + dead_name + "$"), "");
}

}  // namespace
}  // namespace sbx::docker_test
