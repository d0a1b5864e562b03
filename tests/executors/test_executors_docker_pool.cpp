// The pool: runs that share image and limits reuse one warm container (counted by the
// containers the engine saw created); different limits get another; the instance's end
// removes them; a SIGKILLed host's containers are removed by the sweep, and nothing else.
#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <set>

#include "docker_executor_fixture.hpp"

namespace sbx::docker_test {
namespace {

TEST_F(DockerExecutorTest, PoolReusesOneContainerForRunsThatShareImageAndLimits) {
    std::set<std::string> containers;
    std::string label;
    {
        auto instance = docker_plugin()->create(config(true));
        for (int i = 0; i < 5; ++i) {
            const json result =
                run_on(*instance, spec({"sh", "-c", "echo run"}, {{"memory_bytes", 64 << 20}}));
            ASSERT_EQ(result["status"], "OK") << result.dump();
            EXPECT_EQ(result["pool"], i == 0 ? "new" : "reused");
            containers.insert(result["container"].get<std::string>());
        }
        EXPECT_EQ(containers.size(), 1U) << "five runs, one creation";
        const json other =
            run_on(*instance, spec({"sh", "-c", "echo run"}, {{"memory_bytes", 32 << 20}}));
        EXPECT_EQ(other["pool"], "new") << "other limits, another container";
        containers.insert(other["container"].get<std::string>());
        EXPECT_EQ(containers.size(), 2U);
        for (const auto &name : containers) {
            EXPECT_NE(docker("ps -q --filter name=^/" + name + "$"), "") << name << " is warm";
        }
    }
    for (const auto &name : containers) {
        EXPECT_EQ(docker("ps -aq --filter name=^/" + name + "$"), "")
            << name << " outlived its executor instance";
    }
}

TEST_F(DockerExecutorTest, IdleContainersAreReapedAfterTheIdleTimeout) {
    json idle_config = config(true);
    idle_config["idle_timeout_s"] = 0.2;
    auto instance = docker_plugin()->create(idle_config);
    const json first = run_on(*instance, spec({"true"}));
    test::wait_past(Clock::now(), std::chrono::milliseconds(200));
    const json second = run_on(*instance, spec({"true"}));
    EXPECT_EQ(second["pool"], "new");
    EXPECT_NE(first["container"], second["container"]);
    EXPECT_EQ(docker("ps -aq --filter name=^/" + first["container"].get<std::string>() + "$"), "");
}

TEST_F(DockerExecutorTest, PurgeRemovesADeadHostsContainersAndNothingElse) {
    // A foreign container (no label), and a labelled one of a live host (this process).
    const std::string foreign = "sbx-foreign-" + std::to_string(::getpid());
    docker("run -d --name " + foreign + " --network none " + kImage + " sleep 600");
    // A label of its own: another test process's purge at start must not remove this
    // test's dead host's container before this test's sweep does.
    json labelled = config(true);
    labelled["pool_label"] = "sbx-purge-test-" + std::to_string(::getpid());
    auto live = docker_plugin()->create(labelled);
    const json live_result = run_on(*live, spec({"true"}));
    const std::string live_name = live_result["container"];

    const std::string dead_name = crash_host_container(labelled);
    ASSERT_FALSE(dead_name.empty()) << "the crash host printed no result";
    // Left behind (stopped: its agent ends with the host's end of the connection).
    ASSERT_TRUE(exists(dead_name)) << "left behind";

    labelled["pool"] = false;
    auto sweeper = docker_plugin()->create(labelled);
    const json listed =
        json::parse(sweeper->sweep(json{{"state_dir", state_dir_}, {"dry_run", true}}.dump()));
    EXPECT_NE(listed.dump().find(dead_name), std::string::npos) << listed.dump();
    EXPECT_TRUE(exists(dead_name)) << "dry run removed it";

    const json removed =
        json::parse(sweeper->sweep(json{{"state_dir", state_dir_}, {"dry_run", false}}.dump()));
    EXPECT_NE(removed.dump().find(dead_name), std::string::npos) << removed.dump();
    EXPECT_EQ(removed.dump().find(live_name), std::string::npos) << removed.dump();
    EXPECT_EQ(removed.dump().find(foreign), std::string::npos) << removed.dump();
    EXPECT_EQ(docker("ps -aq --filter name=^/" + dead_name + "$"), "");
    EXPECT_NE(docker("ps -q --filter name=^/" + live_name + "$"), "") << "a live host's";
    EXPECT_NE(docker("ps -q --filter name=^/" + foreign + "$"), "") << "not ours";
    docker("rm -f " + foreign);
}

}  // namespace
}  // namespace sbx::docker_test
