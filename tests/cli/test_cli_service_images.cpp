// Services run from a container image with the real Docker engine: busybox's httpd serves
// the steps of each run and its container is gone after every run, also after a SIGKILLed
// host once purge-stale ran.
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
    // The docker CLI dies with the host; the container it started does not.
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

}  // namespace
