// Shared fixture of the docker executor tests: the real docker.so through the host's
// loader, against the real engine. A test FAILS (never skips) when the engine cannot be
// reached, saying what is missing: tools/test starts it (tools/start-docker) and builds
// the image (tools/build-test-images).
#pragma once

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "command.hpp"
#include "json_log.hpp"
#include "plugins/plugin.hpp"

namespace sbx::docker_test {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

inline constexpr const char *kImage = "sbx-busybox:local";

inline std::shared_ptr<plugins::Plugin> docker_plugin() {
    static const std::shared_ptr<plugins::Plugin> plugin =
        plugins::load_plugin(SBX_DOCKER_EXECUTOR_PATH);
    return plugin;
}

// Asks the engine directly (docker CLI), independent of the code under test.
inline std::string docker(const std::string &arguments) {
    const auto result = test::run_command({"/bin/sh", "-c", "docker " + arguments + " 2>&1"});
    return result.out;
}

// True while the engine reports container `name` running.
inline bool running(const std::string &name) {
    return docker("inspect -f '{{.State.Running}}' " + name) == "true\n";
}

// True while the engine knows container `name` (running or not).
inline bool exists(const std::string &name) {
    return !docker("ps -aq --filter name=^/" + name + "$").empty();
}

class DockerExecutorTest : public ::testing::Test {
  protected:
    void SetUp() override {
        const auto ping = test::run_command(
            {"/bin/sh", "-c",
             "curl -fsS --max-time 5 --unix-socket /var/run/docker.sock http://localhost/_ping"});
        ASSERT_EQ(ping.out, "OK") << "the Docker engine does not answer on /var/run/docker.sock ("
                                  << ping.err
                                  << "); start it with tools/start-docker (tools/test does)";
        const auto image = test::run_command(
            {"/bin/sh", "-c", std::string("docker image inspect ") + kImage + " >/dev/null"});
        ASSERT_EQ(image.exit_code, 0)
            << "the test image " << kImage << " is missing; build it with tools/build-test-images";
        state_dir_ = test::make_temp_dir("docker-state");
        workspace_ = test::make_temp_dir("docker-ws");
    }
    void TearDown() override {
        std::error_code ignored;
        std::filesystem::remove_all(state_dir_, ignored);
        std::filesystem::remove_all(workspace_, ignored);
    }

    json config(bool pool) const {
        return json{{"pool", pool}, {"state_dir", state_dir_}, {"backoff_ms", 10}};
    }
    json spec(const json &argv, const json &limits = json::object()) const {
        return json{{"run_id", "t-1"},
                    {"argv", argv},
                    {"workspace", workspace_},
                    {"limits", limits},
                    {"state_dir", state_dir_}};
    }
    static json run_on(plugins::Instance &instance, const json &spec) {
        return json::parse(instance.run(spec.dump()));
    }
    json run(const json &spec, bool pool) const {
        auto instance = docker_plugin()->create(config(pool));
        return run_on(*instance, spec);
    }

    // Runs `true` pooled in a separate host process with `executor_config`, SIGKILLs that
    // host once it has printed its result, and returns the name of the container it left
    // behind ("" when it printed none within 20 s).
    std::string crash_host_container(const json &executor_config) const {
        const std::string log = state_dir_ + "/crash-host.log";
        const int pid =
            test::spawn_background({SBX_DOCKER_CRASH_HOST_PATH, SBX_DOCKER_EXECUTOR_PATH,
                                    executor_config.dump(), spec({"true"}).dump()},
                                   {}, "", log);
        // Its result comes after the log lines of its purge at start.
        const std::string line = test::wait_for_json_line(log);
        std::string name = line.empty() ? "" : json::parse(line).value("container", "");
        ::kill(pid, SIGKILL);
        ::waitpid(pid, nullptr, 0);
        return name;
    }

    std::string state_dir_;
    std::string workspace_;
};

}  // namespace sbx::docker_test
