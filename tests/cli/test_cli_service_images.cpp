// Services run from a container image with the real Docker engine, through the Engine API:
// busybox's httpd serves the steps of each run and its container is gone after every run,
// also after a SIGKILLed host once purge-stale ran; a container that dies fails the step with
// its output, and a missing image fails the run with the engine's word for it.
#include <signal.h>
#include <sys/wait.h>

#include <nlohmann/json.hpp>
#include <string>

#include "cli_fixture.hpp"
#include "wait.hpp"

namespace {

using nlohmann::json;

class ServiceImages : public sbx::test::CliTest {
  protected:
    void SetUp() override {
        CliTest::SetUp();
        const auto image = sbx::test::run_command(
            {"/bin/sh", "-c", "docker image inspect --format ok sbx-busybox:local"});
        ASSERT_EQ(image.out, "ok\n") << "no Docker engine or no sbx-busybox:local image; start "
                                        "it with tools/start-docker and build the image with "
                                        "tools/build-test-images (tools/test does both): "
                                     << image.err;
    }

    // The names of the service containers whose name starts with `prefix`, running or not.
    static std::string service_containers(const std::string &prefix = "sbx-service-") {
        return sbx::test::run_command({"/bin/sh", "-c",
                                       "docker ps -a --format '{{.Names}}' --filter "
                                       "label=sandbox-runner.service --filter name=^/" +
                                           prefix + " | sort"})
            .out;
    }
};

TEST_F(ServiceImages, AnImageServiceServesEachRunAndLeavesNoContainer) {
    write_settings(R"(
scenarios: [{name: normal}]
workflows:
  - name: web
    services:
      - name: site
        image: sbx-busybox:local
        run: [httpd, -f, -p, "{{port}}", -h, .]
        files: {index.html: "hello from a container"}
        ready: {http: /index.html}
    steps:
      - run: [/bin/sh, -c, 'curl -fsS --max-time 5 "http://$SANDBOX_UPSTREAM_SITE/index.html"']
        expect: {stdout_contains: hello from a container}
)");
    // Another host's service containers (another user's, say) are not this test's.
    const std::string before = service_containers();
    const auto result = runner({"run-scenarios", "web", "--repetitions", "2", "--json"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const json summary = json::parse(result.out);
    EXPECT_DOUBLE_EQ(summary["scenarios"]["normal"]["roi"].get<double>(), 1.0) << result.out;
    EXPECT_EQ(service_containers(), before);
}

TEST_F(ServiceImages, TheContainerOfASigkilledHostsServiceIsPurged) {
    write_settings(R"(
scenarios: [{name: normal}]
workflows:
  - name: long
    services:
      - name: keeper
        image: sbx-busybox:local
        run: [sleep, "300"]
        ready: {command: ["true"]}
    steps:
      - run: [/bin/sleep, "30"]
)");
    const int pid =
        sbx::test::spawn_background({SBX_BINARY, "--config", settings_, "--data-dir",
                                     dir_ + "/data", "run-scenarios", "long", "--repetitions", "1"},
                                    {}, dir_, dir_ + "/host.log");
    const std::string ours = "sbx-service-" + std::to_string(pid) + "-";
    ASSERT_TRUE(sbx::test::wait_until([&] { return !service_containers(ours).empty(); }))
        << "the service's container never started";
    ASSERT_EQ(::kill(pid, SIGKILL), 0);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    // The host dies; the container it started does not.
    EXPECT_NE(service_containers(ours), "");

    const auto listed = runner({"check-resources"});
    EXPECT_EQ(listed.exit_code, 1) << listed.out << listed.err;
    EXPECT_NE(listed.out.find("keeper of host " + std::to_string(pid)), std::string::npos)
        << listed.out;
    EXPECT_NE(listed.out.find("container sbx-service-" + std::to_string(pid) + "-"),
              std::string::npos)
        << listed.out;
    const auto purged = runner({"purge-stale"});
    EXPECT_EQ(purged.exit_code, 0) << purged.err;
    EXPECT_EQ(service_containers(ours), "");
    EXPECT_EQ(runner({"check-resources"}).exit_code, 0);
}

// Its output is followed into the service's folder and its end seen, as for a program.
TEST_F(ServiceImages, AContainerThatDiesFailsTheStepWithItsOutput) {
    write_settings(R"(
scenarios: [{name: normal}]
workflows:
  - name: dies
    services:
      - name: flaky
        image: sbx-busybox:local
        run: [sh, -c, 'sleep 0.3; echo giving up >&2; exit 3']
        ready: {command: ["true"]}
    steps:
      - name: wait
        run: [/bin/sleep, "3"]
)");
    const std::string before = service_containers();
    const auto died = runner({"run-scenarios", "dies", "--repetitions", "1", "--json"});
    ASSERT_EQ(died.exit_code, 1) << died.err;
    EXPECT_EQ(json::parse(died.out)["status"], "broken") << died.out;
    const auto failure = on_steps(
        "json_extract(s.result, '$.error'), json_extract(s.result, '$.services.flaky.stderr')");
    ASSERT_EQ(failure.size(), 1U);
    EXPECT_EQ(failure[0][0], "service 'flaky' exited with 3 during step 'wait'");
    EXPECT_EQ(failure[0][1], "giving up\n");
    EXPECT_EQ(service_containers(), before);
}

TEST_F(ServiceImages, AMissingImageFailsTheRunWithTheEnginesMessage) {
    write_settings(R"(
scenarios: [{name: normal}]
workflows:
  - name: nothing
    services:
      - name: ghost
        image: sbx-no-such-image:none
        run: [httpd, -f, -p, "{{port}}"]
    steps:
      - run: ["true"]
)");
    const std::string before = service_containers();
    const auto result = runner({"run-scenarios", "nothing", "--repetitions", "1", "--json"});
    EXPECT_NE(result.exit_code, 0) << result.out << result.err;
    EXPECT_NE((result.out + result.err).find("No such image: sbx-no-such-image:none"),
              std::string::npos)
        << result.out << result.err;
    EXPECT_EQ(service_containers(), before);
}

}  // namespace
