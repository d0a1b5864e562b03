// The agent in a warm container (docker-run-init --serve, pool_transport agent): pooled runs
// go through it without an exec (the engine's own event log says so), end as natively and
// as through an exec, leave nothing for the next run, are killed at their timeout with the
// container kept, and a container whose agent dies is replaced.
#include <signal.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>
#include <sys/wait.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <sstream>
#include <thread>

#include "docker_executor_fixture.hpp"
#include "wait.hpp"

namespace sbx::docker_test {
namespace {

json transport_config(const json &base, const std::string &transport) {
    json config = base;
    config["pool_transport"] = transport;
    return config;
}

// What the engine did to container `name` since `since` (a `docker events` timestamp).
std::string engine_events(const std::string &name, const std::string &since) {
    return docker("events --since " + since + " --until \"$(date +%s.%N)\" --filter container=" +
                  name + " --format '{{.Action}}'");
}

std::string now_for_events() {
    const auto seconds =
        std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
    std::ostringstream text;
    text.precision(3);
    text << std::fixed << seconds;
    return text.str();
}

std::string file_bytes(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The host pid of container `name`'s main process (the agent).
long main_pid(const std::string &name) {
    return std::stol("0" + docker("inspect -f '{{.State.Pid}}' " + name));
}

// What the host logged (plugins log through it) while `body` ran.
std::string capture_log(const std::function<void()> &body) {
    std::ostringstream text;
    const auto previous = spdlog::default_logger();
    struct Restore {
        std::shared_ptr<spdlog::logger> logger;
        ~Restore() { spdlog::set_default_logger(logger); }
    } restore{previous};
    spdlog::set_default_logger(std::make_shared<spdlog::logger>(
        "capture", std::make_shared<spdlog::sinks::ostream_sink_mt>(text)));
    body();
    return text.str();
}

TEST_F(DockerExecutorTest, PooledRunsGoThroughTheAgentWithoutAnExec) {
    auto instance = docker_plugin()->create(config(true));
    const json first = run_on(*instance, spec({"true"}));
    ASSERT_EQ(first["status"], "OK") << first.dump();
    EXPECT_EQ(first["transport"], "agent") << first.dump();
    const std::string name = first["container"];
    EXPECT_NE(docker("inspect -f '{{json .Config.Cmd}}' " + name).find("--serve"),
              std::string::npos)
        << "the container's main process is the agent";
    const std::string since = now_for_events();
    for (int i = 0; i < 5; ++i) {
        const json result = run_on(*instance, spec({"sh", "-c", "echo $0", std::to_string(i)}));
        ASSERT_EQ(result["status"], "OK") << result.dump();
        EXPECT_EQ(result["transport"], "agent");
        EXPECT_EQ(result["pool"], "reused");
        EXPECT_EQ(result["container"], name);
        EXPECT_EQ(result["stdout"], std::to_string(i) + "\n");
    }
    EXPECT_EQ(engine_events(name, since), "") << "five pooled runs, no engine action";

    // The exec transport stays selectable, and its runs are execs.
    auto by_exec = docker_plugin()->create(transport_config(config(true), "exec"));
    const json exec_first = run_on(*by_exec, spec({"true"}));
    EXPECT_EQ(exec_first["transport"], "exec") << exec_first.dump();
    const std::string exec_since = now_for_events();
    run_on(*by_exec, spec({"true"}));
    EXPECT_NE(engine_events(exec_first["container"], exec_since).find("exec_start"),
              std::string::npos);
}

TEST_F(DockerExecutorTest, ABadTransportIsAClearError) {
    try {
        const auto instance = docker_plugin()->create(transport_config(config(true), "ssh"));
        ADD_FAILURE() << "pool_transport: ssh was accepted";
    } catch (const std::exception &e) {
        EXPECT_NE(std::string(e.what()).find("pool_transport"), std::string::npos) << e.what();
        // The schema's enum, checked by the host's loader before the plugin's own parser.
        EXPECT_NE(std::string(e.what()).find(R"(["agent","exec"])"), std::string::npos) << e.what();
    }
}

// Each case through the agent and through an exec: the same result fields, and for those a
// shell gives natively, the same as natively.
TEST_F(DockerExecutorTest, AnAgentRunReportsWhatAnExecAndANativeRunDo) {
    auto agent = docker_plugin()->create(config(true));
    auto exec = docker_plugin()->create(transport_config(config(true), "exec"));
    const std::string script = "printf 'out\\nput'; printf 'err' >&2; exit 3";
    const auto native = test::run_command({"/bin/sh", "-c", script});
    std::vector<json> cases = {
        spec({"sh", "-c", script}),
        spec({"sh", "-c", "sh -c 'kill -TERM $$'; exit $?"}),
        spec({"sh", "-c", "kill -SEGV $$"}),
        spec({"sh", "-c", "echo $HOME $TMPDIR $LANG $GREETING; pwd; cat"}),
        spec({"no-such-program"}),
        spec({"sh", "-c", "yes | head -c 100000"}, {{"output_bytes", 1000}}),
        spec({"sh", "-c", "ulimit -t; ulimit -Ht"}, {{"cpu_time_s", 2}}),
    };
    cases[3]["env"] = {{"GREETING", "hello"}};
    cases[3]["stdin"] = std::string("bytes\0with a NUL\n", 17);
    const char *fields[] = {"status",       "exit_code",        "signal",     "stdout",
                            "stdout_bytes", "stdout_truncated", "stderr",     "stderr_bytes",
                            "limit",        "usage_source",     "enforcement"};
    for (const auto &each : cases) {
        const json by_agent = run_on(*agent, each);
        const json by_exec = run_on(*exec, each);
        EXPECT_EQ(by_agent["transport"], "agent");
        EXPECT_EQ(by_exec["transport"], "exec");
        for (const char *field : fields) {
            EXPECT_EQ(by_agent.value(field, json()), by_exec.value(field, json()))
                << field << " of " << each["argv"].dump() << "\nagent: " << by_agent.dump()
                << "\nexec: " << by_exec.dump();
        }
    }
    const json by_agent = run_on(*agent, cases[0]);
    EXPECT_EQ(by_agent["exit_code"], native.exit_code);
    EXPECT_EQ(by_agent["stdout"], native.out);
    EXPECT_EQ(by_agent["stderr"], native.err);
}

TEST_F(DockerExecutorTest, AnAgentRunGetsArgvAndEnvThatAreNotUtf8ByteForByte) {
    auto instance = docker_plugin()->create(config(true));
    const std::string stand_in =
        "\xEF\xBF\xBD\xEF\xBF\xBD"
        "A";  // U+FFFD U+FFFD A
    json s = spec(
        {"sh", "-c", "printf '%s' \"$1\" > arg.bin; printf '%s' \"$V\" > env.bin", "sh", stand_in});
    s["env"] = {{"V", stand_in}};
    s["raw"] = {{"argv", {{"4", "//5B"}}}, {"env", {{"V", "//5B"}}}};  // \xff\xfe A
    const json result = run_on(*instance, s);
    ASSERT_EQ(result["status"], "OK") << result.dump();
    EXPECT_EQ(result["transport"], "agent");
    EXPECT_EQ(file_bytes(workspace_ + "/arg.bin"),
              "\xff\xfe"
              "A");
    EXPECT_EQ(file_bytes(workspace_ + "/env.bin"),
              "\xff\xfe"
              "A");
}

TEST_F(DockerExecutorTest, ConsecutiveAgentRunsAreIndependent) {
    auto instance = docker_plugin()->create(config(true));
    json first = spec({"sh", "-c",
                       "sleep 300 & setsid sh -c 'sleep 301 &' & echo x > /tmp/left; "
                       "mkdir -p /tmp/d/e; echo y > /tmp/d/e/f; echo z > /dev/shm/left; "
                       "export LEAK=1; echo started"});
    first["env"] = {{"ONLY_FIRST", "1"}};
    const json one = run_on(*instance, first);
    ASSERT_EQ(one["status"], "OK") << one.dump();
    // Not `ls /tmp`: the workspace may be bind-mounted under it (the tests' TMPDIR).
    const json two = run_on(*instance, spec({"sh", "-c",
                                             "ps -o args | grep -c '^sleep'; "
                                             "for f in /tmp/left /tmp/d /dev/shm/left; do "
                                             "test -e $f && echo $f; done; "
                                             "echo ${ONLY_FIRST-unset} ${LEAK-unset}"}));
    ASSERT_EQ(two["status"], "OK") << two.dump();
    EXPECT_EQ(two["container"], one["container"]);
    EXPECT_EQ(two["transport"], "agent");
    EXPECT_EQ(two["stdout"], "0\nunset unset\n") << two.dump();
}

std::size_t open_descriptors() {
    std::size_t count = 0;
    for ([[maybe_unused]] const auto &entry :
         std::filesystem::directory_iterator("/proc/self/fd")) {
        ++count;
    }
    return count;
}

TEST_F(DockerExecutorTest, AgentRunsLeaveNoDescriptorOpen) {
    auto instance = docker_plugin()->create(config(true));
    json with_stdin = spec({"sh", "-c", "cat; echo err >&2"});
    with_stdin["stdin"] = "in\n";
    // The container, its agent's connection.
    const std::string name = run_on(*instance, with_stdin)["container"];
    const std::string agent_fds = "/proc/" + std::to_string(main_pid(name)) + "/fd";
    const auto agent_count = [&agent_fds] {
        return test::run_command({"/bin/sh", "-c", "ls " + agent_fds + " | wc -l"}).out;
    };
    const std::string agent_before = agent_count();
    const std::size_t before = open_descriptors();
    for (int i = 0; i < 20; ++i) {
        const json result = run_on(*instance, with_stdin);
        ASSERT_EQ(result["stdout"], "in\n") << result.dump();
        const json timed_out = run_on(*instance, spec({"sleep", "30"}, {{"timeout_ms", 50}}));
        ASSERT_EQ(timed_out["status"], "TO") << timed_out.dump();
    }
    EXPECT_EQ(open_descriptors(), before) << "pipes, memfds or sockets left open";
    EXPECT_EQ(agent_count(), agent_before) << "the agent kept a run's descriptors";
}

TEST_F(DockerExecutorTest, ATargetCannotEndTheAgent) {
    auto instance = docker_plugin()->create(config(true));
    const json first = run_on(*instance, spec({"sh", "-c",
                                               "for s in TERM INT HUP QUIT USR1 KILL; do "
                                               "kill -$s 1; done; echo still here"}));
    EXPECT_EQ(first["status"], "OK") << first.dump();
    EXPECT_EQ(first["stdout"], "still here\n") << first.dump();
    const json second = run_on(*instance, spec({"true"}));
    EXPECT_EQ(second["status"], "OK") << second.dump();
    EXPECT_EQ(second["container"], first["container"]) << "the agent took the next run";
    EXPECT_EQ(second["pool"], "reused");
}

TEST_F(DockerExecutorTest, AnAgentKillsARunAtItsTimeoutAndKeepsTheContainer) {
    auto instance = docker_plugin()->create(config(true));
    const json slow = run_on(
        *instance, spec({"sh", "-c", "setsid sleep 300 & sleep 300"}, {{"timeout_ms", 500}}));
    EXPECT_EQ(slow["status"], "TO") << slow.dump();
    EXPECT_EQ(slow["limit"], "timeout");
    EXPECT_EQ(slow["exit_code"], 137);
    EXPECT_EQ(slow["signal"], 9);
    EXPECT_EQ(slow["transport"], "agent");
    EXPECT_EQ(slow["cleanup"].value("force_kills", 0.0), 1.0) << slow.dump();
    const json after = run_on(*instance, spec({"sh", "-c", "ps -o args | grep -c '^sleep'"}));
    EXPECT_EQ(after["container"], slow["container"]) << "the run's processes went, not the "
                                                        "container";
    EXPECT_EQ(after["pool"], "reused");
    EXPECT_EQ(after["stdout"], "0\n") << after.dump();
}

TEST_F(DockerExecutorTest, AContainerWhoseAgentWasKilledIsReplaced) {
    auto instance = docker_plugin()->create(config(true));
    const json first = run_on(*instance, spec({"true"}));
    const std::string name = first["container"];
    const long pid = main_pid(name);
    ASSERT_GT(pid, 0) << name;
    ASSERT_EQ(::kill(static_cast<pid_t>(pid), SIGKILL), 0);
    EXPECT_TRUE(test::wait_until([&] { return !running(name); })) << name;
    const json second = run_on(*instance, spec({"sh", "-c", "echo fine"}));
    EXPECT_EQ(second["status"], "OK") << second.dump();
    EXPECT_EQ(second["stdout"], "fine\n");
    EXPECT_EQ(second["pool"], "new");
    EXPECT_EQ(second["transport"], "agent");
    EXPECT_NE(second["container"], name);
    EXPECT_EQ(second["cleanup"].value("cleanup_unhealthy", 0.0), 1.0) << second.dump();
    EXPECT_FALSE(exists(name)) << name << " was not removed";
}

TEST_F(DockerExecutorTest, AnAgentKilledDuringARunMakesItASandboxFault) {
    auto instance = docker_plugin()->create(config(true));
    const json first = run_on(*instance, spec({"true"}));
    const std::string name = first["container"];
    const long pid = main_pid(name);
    ASSERT_GT(pid, 0) << name;
    const int killer = test::spawn_background(
        {"/bin/sh", "-c", "sleep 1; kill -9 " + std::to_string(pid)}, {}, "", "/dev/null");
    const json during = run_on(*instance, spec({"sleep", "60"}, {{"timeout_ms", 30000}}));
    ::waitpid(killer, nullptr, 0);
    EXPECT_EQ(during["status"], "XX") << during.dump();
    EXPECT_EQ(during["sandbox_fault"], true) << during.dump();
    EXPECT_NE(during["error"].get<std::string>().find("agent"), std::string::npos) << during.dump();
    EXPECT_FALSE(exists(name)) << name << " was not removed";
    const json after = run_on(*instance, spec({"true"}));
    EXPECT_EQ(after["status"], "OK") << after.dump();
    EXPECT_EQ(after["pool"], "new");
}

TEST_F(DockerExecutorTest, AnAgentWhoseHostDiedStopsItsContainer) {
    json labelled = config(true);
    labelled["pool_label"] = "sbx-agent-orphan-" + std::to_string(::getpid());
    const std::string name = crash_host_container(labelled);
    ASSERT_FALSE(name.empty()) << "the crash host printed no result";
    EXPECT_TRUE(test::wait_until([&] { return !running(name); }))
        << name << ": its agent saw the host's end of the connection close";
    labelled["pool"] = false;
    auto sweeper = docker_plugin()->create(labelled);
    const json removed =
        json::parse(sweeper->sweep(json{{"state_dir", state_dir_}, {"dry_run", false}}.dump()));
    EXPECT_NE(removed.dump().find(name), std::string::npos) << removed.dump();
    EXPECT_FALSE(exists(name));
}

// A docker.so whose docker-run-init cannot serve (a script that refuses --serve and runs
// anything else as it is): the pool says why, uses execs, and its runs still pass.
TEST_F(DockerExecutorTest, APoolWhoseAgentCannotStartFallsBackToExec) {
    namespace fs = std::filesystem;
    const fs::path folder = fs::path(state_dir_) / "plugin";
    fs::create_directories(folder);
    fs::copy_file(SBX_DOCKER_EXECUTOR_PATH, folder / "docker.so");
    {
        std::ofstream helper(folder / "docker-run-init");
        helper << "#!/bin/sh\n"
                  "if [ \"$1\" = --serve ]; then\n"
                  "  echo 'sbx-docker-run-init: no agent in this build (test)' >&2; exit 125\n"
                  "fi\n"
                  "exec \"$@\"\n";
    }
    fs::permissions(folder / "docker-run-init", fs::perms::owner_all | fs::perms::group_read |
                                                    fs::perms::group_exec | fs::perms::others_read |
                                                    fs::perms::others_exec);
    const auto plugin = plugins::load_plugin((folder / "docker.so").string());
    auto instance = plugin->create(config(true));
    const std::string log = capture_log([&] {
        for (int i = 0; i < 2; ++i) {
            const json result = run_on(*instance, spec({"sh", "-c", "echo fine"}));
            EXPECT_EQ(result["status"], "OK") << result.dump();
            EXPECT_EQ(result["stdout"], "fine\n") << result.dump();
            EXPECT_EQ(result["transport"], "exec") << result.dump();
        }
    });
    EXPECT_NE(log.find("agent did not start"), std::string::npos) << log;
    EXPECT_NE(log.find("no agent in this build (test)"), std::string::npos) << log;
}

TEST_F(DockerExecutorTest, AnAgentRunsTargetsAsTheContainersUser) {
    std::filesystem::permissions(workspace_, std::filesystem::perms::all);
    json as_nobody = config(true);
    as_nobody["user"] = "65534:65534";
    auto instance = docker_plugin()->create(as_nobody);
    const json result = run_on(*instance, spec({"sh", "-c", "id -u; echo made > made.txt"}));
    EXPECT_EQ(result["status"], "OK") << result.dump();
    EXPECT_EQ(result["transport"], "agent") << "the agent reached its socket as uid 65534";
    EXPECT_EQ(result["stdout"], "65534\n") << result.dump();
}

// Live processes on this machine (containers' too) whose command line is `sleep SECONDS`.
bool sleeping(const std::string &seconds) {
    return !test::run_command({"/bin/sh", "-c", "pgrep -xf 'sleep " + seconds + "'"}).out.empty();
}

TEST_F(DockerExecutorTest, HostCancellationKillsAnAgentRunAndRemovesItsContainer) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    // A label and a duration of this test's own, so what it left can be told apart.
    const std::string label = "sbx-agent-cancel-" + std::to_string(::getpid());
    const std::string duration = "31." + std::to_string(::getpid());
    // In a child process: the host's cancel flag cannot be cleared once set.
    EXPECT_EXIT(
        {
            json labelled = config(true);
            labelled["pool_label"] = "sbx-agent-cancel-" + std::to_string(::getppid());
            const std::string seconds = "31." + std::to_string(::getppid());
            int code = 1;
            {
                const auto instance = docker_plugin()->create(labelled);
                (void)instance->run(spec({"true"}).dump());  // a warm container and its agent
                std::thread canceller([&] {
                    (void)test::wait_until([&] { return sleeping(seconds); });
                    plugins::request_cancel();
                });
                try {
                    (void)instance->run(spec({"sleep", seconds}).dump());
                } catch (const plugins::PluginCallError &e) {
                    code = e.status() == SBX_CANCELLED ? 0 : 2;
                }
                canceller.join();
            }
            TearDown();  // std::exit skips the fixture's own
            std::exit(code);
        },
        ::testing::ExitedWithCode(0), "");
    EXPECT_EQ(docker("ps -aq --filter label=" + label), "") << "its container was removed";
    EXPECT_TRUE(test::wait_until([&] { return !sleeping(duration); })) << "the run was killed";
}

}  // namespace
}  // namespace sbx::docker_test
