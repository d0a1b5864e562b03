// The fault_proxy injector's contract with the host: when it is active, what it tells the
// target, refusal of bad values, one proxy per address shared by a preset's runs (another
// preset waits), record files, sweep after a SIGKILLed host, and a proxy that listens
// inside the run's network namespace.
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <future>
#include <iostream>

#include "fault_proxy_fixture.hpp"
#include "json_log.hpp"
#include "machine.hpp"

namespace sbx::injectors_test {
namespace {

sbx_status prepare_status(plugins::Instance &injector, const json &request) {
    try {
        const json response = json::parse(injector.prepare(request.dump()));
        injector.teardown(response.value("state", json()).dump());
        return SBX_OK;
    } catch (const plugins::PluginCallError &e) {
        return e.status();
    }
}

// True when thread `tid` of this process is blocked (state S in its stat: waiting on a
// condition variable, a socket, a timer), not running.
bool thread_is_sleeping(pid_t tid) {
    std::ifstream in("/proc/self/task/" + std::to_string(tid) + "/stat");
    const std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto close = stat.rfind(')');  // the name may hold spaces and parentheses
    return close != std::string::npos && close + 2 < stat.size() && stat[close + 2] == 'S';
}

// A port that was free a moment ago (bound to port 0 and closed).
std::string free_address() {
    const TestUpstream probe(TestUpstream::Mode::echo);
    return probe.address();
}

std::vector<std::filesystem::path> records_in(const std::string &folder) {
    std::vector<std::filesystem::path> records;
    std::error_code ec;
    for (const auto &entry : std::filesystem::directory_iterator(folder, ec)) {
        records.push_back(entry.path());
    }
    return records;
}

TEST_F(FaultProxyTest, DescribesAnInjectorWithAClosedSchema) {
    const auto &descriptor = fault_proxy_plugin()->descriptor();
    EXPECT_EQ(descriptor.id, "fault_proxy");
    EXPECT_EQ(descriptor.kind, SBX_KIND_INJECTOR);
    EXPECT_EQ(descriptor.config_schema["additionalProperties"], false);
    EXPECT_ANY_THROW((void)fault_proxy_plugin()->create({{"corrupt_rate", 2}}));
    EXPECT_ANY_THROW((void)fault_proxy_plugin()->create({{"seed", -1}}));
}

TEST_F(FaultProxyTest, ANoOpForWorkflowsWithoutUpstreams) {
    auto proxy = injector();
    json plain = request({{"FAILURE_MODES", "flaky_upstream"}, {"API_LATENCY_MS", "100"}}, "");
    plain["spec"].erase("upstreams");
    const json response = json::parse(proxy->prepare(plain.dump()));
    EXPECT_FALSE(response.value("active", true));
    EXPECT_FALSE(response.contains("spec")) << "the spec is left alone";
    proxy->teardown(response.value("state", json()).dump());
}

TEST_F(FaultProxyTest, WithoutFaultsTheTargetIsToldTheRealUpstream) {
    auto proxy = injector();
    for (const json &preset : {json::object(), json{{"CPU_SPIKE", "1"}},
                               json{{"FAILURE_MODES", "cpu_spike, network"}}}) {
        const PreparedRun run(*proxy, request(preset, "127.0.0.1:8080"));
        EXPECT_FALSE(run.response().value("active", true)) << preset.dump();
        EXPECT_EQ(run.upstream(), "127.0.0.1:8080") << preset.dump();
    }
}

TEST_F(FaultProxyTest, AFixedListenAddressWorksInEveryScenario) {
    // A target written against the fixed address must reach its upstream under normal
    // too: fault-free presets get an idle proxy there, one shared by all of them.
    const TestUpstream upstream(TestUpstream::Mode::echo);
    const std::string fixed = free_address();
    auto proxy = injector();
    const PreparedRun normal(*proxy,
                             request({{"SCENARIO_NAME", "normal"}}, upstream.address(), fixed));
    EXPECT_FALSE(normal.response().value("active", true)) << "no fault applied";
    EXPECT_EQ(normal.upstream(), fixed);
    EXPECT_EQ(normal.response()["fault_proxy"]["plan"]["failures"], 0);
    const PreparedRun hostile(
        *proxy, request({{"SCENARIO_NAME", "hostile_input"}, {"FAILURE_MODES", "hostile_input"}},
                        upstream.address(), fixed));
    EXPECT_TRUE(hostile.response()["fault_proxy"]["upstreams"][0].value("shared", false));
    Client client(fixed);
    EXPECT_EQ(client.exchange("plain\n"), Client::Outcome::ok);
}

TEST_F(FaultProxyTest, TheCommandSeedIsMixedIntoTheSchedule) {
    const TestUpstream upstream(TestUpstream::Mode::echo);
    auto proxy = injector();
    const auto seed_with = [&](const json &command_seed) {
        json asked = request({{"FAILURE_MODES", "flaky_upstream"}}, upstream.address());
        if (!command_seed.is_null()) {
            asked["seed"] = command_seed;
        }
        const PreparedRun run(*proxy, asked);
        return run.response()["fault_proxy"]["seed"].get<std::uint64_t>();
    };
    EXPECT_EQ(seed_with(json()), 0U) << "no command seed: the seed setting alone";
    EXPECT_EQ(seed_with(11), seed_with(11));
    EXPECT_NE(seed_with(11), seed_with(12));
    EXPECT_NE(seed_with(11), 0U);
}

TEST_F(FaultProxyTest, EachUpstreamKeyOrModeActivatesIt) {
    const TestUpstream upstream(TestUpstream::Mode::echo);
    auto proxy = injector();
    for (const json &preset :
         {json{{"FAILURE_MODES", json::array({"flaky_upstream"})}},
          json{{"FAILURE_MODES", "cpu_spike, api_latency"}},
          json{{"FAILURE_MODES", "corrupt_payload"}}, json{{"UPSTREAM_FAILURES", "0"}},
          json{{"API_LATENCY_MS", 0}}, json{{"CORRUPT_PAYLOAD", true}},
          json{{"FAILURE_MODES", "upstream_timeout"}}, json{{"UPSTREAM_TIMEOUTS", "0"}},
          json{{"UPSTREAM_BANDWIDTH", "10mbps"}}, json{{"UPSTREAM_SLICE_BYTES", "1"}}}) {
        json keyed = preset;
        keyed["SCENARIO_NAME"] = "activates";
        const PreparedRun run(*proxy, request(keyed, upstream.address()));
        EXPECT_TRUE(run.response().value("active", false)) << preset.dump();
        EXPECT_NE(run.upstream(), upstream.address()) << "the target is sent to the proxy";
        EXPECT_EQ(run.upstream().rfind("127.0.0.1:", 0), 0U) << run.upstream();
    }
    const PreparedRun flaky(*proxy,
                            request({{"FAILURE_MODES", "flaky_upstream"}}, upstream.address()));
    const json plain_plan = {{"latency_ms", 0},     {"failures", 0},
                             {"timeouts", 0},       {"requests", 20},
                             {"corrupt_rate", 0.0}, {"bandwidth_bits_per_s", 0.0},
                             {"slice_bytes", 0},    {"slice_delay_ms", 0}};
    json flaky_plan = plain_plan;
    flaky_plan["failures"] = 1;
    EXPECT_EQ(flaky.response()["fault_proxy"]["plan"], flaky_plan)
        << "the canonical flaky_upstream: 1 in 20";
    const PreparedRun hanging(*proxy,
                              request({{"FAILURE_MODES", "upstream_timeout"}}, upstream.address()));
    json hanging_plan = plain_plan;
    hanging_plan["timeouts"] = 1;
    EXPECT_EQ(hanging.response()["fault_proxy"]["plan"], hanging_plan)
        << "upstream_timeout alone: 1 hung connection in 20";
    const PreparedRun shaped(*proxy, request({{"SCENARIO_NAME", "shaped"},
                                              {"UPSTREAM_BANDWIDTH", "1.5Mbps"},
                                              {"UPSTREAM_SLICE_BYTES", 7},
                                              {"UPSTREAM_SLICE_DELAY_MS", "2.5"}},
                                             upstream.address()));
    json shaped_plan = plain_plan;
    shaped_plan["bandwidth_bits_per_s"] = 1.5e6;
    shaped_plan["slice_bytes"] = 7;
    shaped_plan["slice_delay_ms"] = 3;
    EXPECT_EQ(shaped.response()["fault_proxy"]["plan"], shaped_plan);
}

TEST_F(FaultProxyTest, RefusesValuesThatAreNotThePresetsUnits) {
    auto proxy = injector();
    for (const json &preset :
         {json{{"API_LATENCY_MS", "100ms"}}, json{{"API_LATENCY_MS", "-5"}},
          json{{"API_LATENCY_MS", "9999999"}}, json{{"UPSTREAM_FAILURES", "1.5"}},
          json{{"UPSTREAM_FAILURES", "5"}, {"UPSTREAM_REQUESTS", "2"}},
          json{{"UPSTREAM_FAILURES", "1"}, {"UPSTREAM_REQUESTS", "0"}},
          json{{"CORRUPT_PAYLOAD", "150%"}}, json{{"CORRUPT_PAYLOAD", "lots"}}}) {
        EXPECT_EQ(prepare_status(*proxy, request(preset, "127.0.0.1:8080")), SBX_INVALID)
            << preset.dump();
    }
    // The newer keys: refused naming the key, with what to write instead.
    for (const auto &[preset, key] : std::vector<std::pair<json, std::string>>{
             {{{"UPSTREAM_TIMEOUTS", "1.5"}}, "UPSTREAM_TIMEOUTS"},
             {{{"UPSTREAM_TIMEOUTS", "-1"}}, "UPSTREAM_TIMEOUTS"},
             {{{"UPSTREAM_TIMEOUTS", "9"}, {"UPSTREAM_FAILURES", "2"}, {"UPSTREAM_REQUESTS", "10"}},
              "UPSTREAM_TIMEOUTS"},
             {{{"UPSTREAM_TIMEOUTS", "1"}, {"UPSTREAM_REQUESTS", "0"}}, "UPSTREAM_REQUESTS"},
             {{{"UPSTREAM_BANDWIDTH", "10MB"}}, "UPSTREAM_BANDWIDTH"},
             {{{"UPSTREAM_BANDWIDTH", "fast"}}, "UPSTREAM_BANDWIDTH"},
             {{{"UPSTREAM_BANDWIDTH", "0"}}, "UPSTREAM_BANDWIDTH"},
             {{{"UPSTREAM_BANDWIDTH", "-5mbps"}}, "UPSTREAM_BANDWIDTH"},
             {{{"UPSTREAM_BANDWIDTH", "2000gbps"}}, "UPSTREAM_BANDWIDTH"},
             {{{"UPSTREAM_SLICE_BYTES", "0"}}, "UPSTREAM_SLICE_BYTES"},
             {{{"UPSTREAM_SLICE_BYTES", "7.5"}}, "UPSTREAM_SLICE_BYTES"},
             {{{"UPSTREAM_SLICE_BYTES", "7B"}}, "UPSTREAM_SLICE_BYTES"},
             {{{"UPSTREAM_SLICE_BYTES", "2000000"}}, "UPSTREAM_SLICE_BYTES"},
             {{{"UPSTREAM_SLICE_BYTES", "7"}, {"UPSTREAM_SLICE_DELAY_MS", "10ms"}},
              "UPSTREAM_SLICE_DELAY_MS"},
             {{{"UPSTREAM_SLICE_BYTES", "7"}, {"UPSTREAM_SLICE_DELAY_MS", "-1"}},
              "UPSTREAM_SLICE_DELAY_MS"}}) {
        try {
            const PreparedRun run(*proxy, request(preset, "127.0.0.1:8080"));
            ADD_FAILURE() << preset.dump() << " was accepted";
        } catch (const plugins::PluginCallError &e) {
            EXPECT_EQ(e.status(), SBX_INVALID) << preset.dump();
            EXPECT_NE(std::string(e.what()).find(key + ": "), std::string::npos) << e.what();
            EXPECT_NE(std::string(e.what()).find("write"), std::string::npos) << e.what();
        }
    }
    json unnamed = request({{"API_LATENCY_MS", "1"}}, "127.0.0.1:8080");
    unnamed["spec"]["upstreams"][0]["name"] = "my-api";
    EXPECT_EQ(prepare_status(*proxy, unnamed), SBX_INVALID);
    json no_port = request({{"API_LATENCY_MS", "1"}}, "127.0.0.1");
    EXPECT_EQ(prepare_status(*proxy, no_port), SBX_INVALID);
    json twice = request({{"API_LATENCY_MS", "1"}}, "127.0.0.1:8080", "127.0.0.1:18999");
    twice["spec"]["upstreams"].push_back(
        {{"name", "other"}, {"listen", "127.0.0.1:18999"}, {"target", "127.0.0.1:8081"}});
    EXPECT_EQ(prepare_status(*proxy, twice), SBX_INVALID);
}

TEST_F(FaultProxyTest, TellsTheTargetWhereEachUpstreamIs) {
    const TestUpstream api(TestUpstream::Mode::echo);
    const TestUpstream cache(TestUpstream::Mode::echo);
    auto proxy = injector();
    json both =
        request({{"SCENARIO_NAME", "two-upstreams"}, {"API_LATENCY_MS", "0"}}, api.address());
    both["spec"]["upstreams"].push_back(
        {{"name", "Cache_1"}, {"listen", "127.0.0.1:0"}, {"target", cache.address()}});
    both["spec"]["env"]["KEEP"] = "me";
    const PreparedRun run(*proxy, both);
    EXPECT_EQ(run.spec()["env"].value("KEEP", ""), "me");
    for (const char *variable : {"SANDBOX_UPSTREAM_API", "SANDBOX_UPSTREAM_CACHE_1"}) {
        Client client(run.upstream(variable));
        EXPECT_EQ(client.exchange("hi\n"), Client::Outcome::ok) << variable;
    }
    EXPECT_EQ(api.accepted(), 1);
    EXPECT_EQ(cache.accepted(), 1);
}

TEST_F(FaultProxyTest, RunsOfOnePresetShareTheProxyAnotherPresetWaits) {
    const TestUpstream upstream(TestUpstream::Mode::echo);
    const std::string fixed = free_address();
    const json preset = {{"SCENARIO_NAME", "shared-address"}, {"API_LATENCY_MS", "0"}};
    auto first_worker = injector();
    auto second_worker = injector({{"wait_ms", 200}});
    auto first =
        std::make_unique<PreparedRun>(*first_worker, request(preset, upstream.address(), fixed));
    EXPECT_EQ(first->upstream(), fixed);
    {
        const PreparedRun same(*second_worker, request(preset, upstream.address(), fixed));
        EXPECT_EQ(same.upstream(), fixed);
        EXPECT_TRUE(same.response()["fault_proxy"]["upstreams"][0].value("shared", false));
    }
    Client still(fixed);
    EXPECT_EQ(still.exchange("still here\n"), Client::Outcome::ok)
        << "the proxy lives while a run holds it";

    const json other = {{"SCENARIO_NAME", "other-preset"}, {"API_LATENCY_MS", "0"}};
    const auto start = Clock::now();
    EXPECT_EQ(prepare_status(*second_worker, request(other, upstream.address(), fixed)),
              SBX_TIMEOUT);
    EXPECT_GE(elapsed_ms(start), 200.0);

    // With time to wait, it gets the address once the first run is torn down.
    auto patient = injector();
    std::atomic<pid_t> waiter{0};
    auto waiting = std::async(std::launch::async, [&] {
        waiter = static_cast<pid_t>(::syscall(SYS_gettid));
        const PreparedRun run(*patient, request(other, upstream.address(), fixed));
        return std::make_pair(Clock::now(), run.upstream());
    });
    // The first run is torn down once the waiter is blocked, waiting for the address.
    EXPECT_TRUE(test::wait_until([&] { return waiter != 0 && thread_is_sleeping(waiter); }))
        << "the waiting run never blocked";
    // The waiter may take the address while reset() is still returning: the moment to
    // compare with is the start of the release.
    const auto releasing = Clock::now();
    first.reset();
    const auto [acquired, address] = waiting.get();
    EXPECT_GE(acquired, releasing) << "it got the address only once the first run let it go";
    EXPECT_EQ(address, fixed);
}

TEST_F(FaultProxyTest, PortZeroGivesEachRunAPortOfItsOwn) {
    const TestUpstream upstream(TestUpstream::Mode::echo);
    auto proxy = injector();
    const json preset = {{"SCENARIO_NAME", "port-zero"}, {"API_LATENCY_MS", "0"}};
    const PreparedRun one(*proxy, request(preset, upstream.address()));
    const PreparedRun two(*proxy, request(preset, upstream.address()));
    EXPECT_NE(one.upstream(), two.upstream());
    EXPECT_FALSE(two.response()["fault_proxy"]["upstreams"][0].value("shared", true));
}

TEST_F(FaultProxyTest, ARecordLivesExactlyAsLongAsItsProxy) {
    const TestUpstream upstream(TestUpstream::Mode::echo);
    auto proxy = injector();
    const std::string folder = state_dir_ + "/fault_proxy";
    {
        const PreparedRun run(
            *proxy,
            request({{"SCENARIO_NAME", "records"}, {"API_LATENCY_MS", "0"}}, upstream.address()));
        const auto records = records_in(folder);
        ASSERT_EQ(records.size(), 1U);
        std::ifstream in(records[0]);
        pid_t pid = 0;
        unsigned long long start_time = 0;
        std::string name;
        std::string listen;
        std::string target;
        in >> pid >> start_time >> name >> listen >> target;
        EXPECT_EQ(pid, ::getpid());
        EXPECT_GT(start_time, 0ULL);
        EXPECT_EQ(name, "api");
        EXPECT_EQ(listen, run.upstream());
        EXPECT_EQ(target, upstream.address());
        // A live host's record is not swept.
        const json swept = json::parse(proxy->sweep(json{{"state_dir", state_dir_}}.dump()));
        EXPECT_EQ(swept["removed"], json::array());
    }
    EXPECT_TRUE(records_in(folder).empty()) << "teardown removes the record";
}

TEST_F(FaultProxyTest, SweepAfterASigkilledHostLeavesNoProxyAndNoRecord) {
    const TestUpstream upstream(TestUpstream::Mode::echo);
    auto live = injector();
    const PreparedRun mine(
        *live,
        request({{"SCENARIO_NAME", "sweep-live"}, {"API_LATENCY_MS", "0"}}, upstream.address()));

    const std::string log = state_dir_ + "/crash.log";
    const int pid =
        test::spawn_background({SBX_FAULT_PROXY_CRASH_HOST_PATH, SBX_FAULT_PROXY_INJECTOR_PATH,
                                state_dir_, upstream.address()},
                               {}, "", log);
    const std::string line = test::wait_for_json_line(log);
    std::string crashed_address;
    if (!line.empty()) {
        crashed_address = json::parse(line)["upstreams"][0].value("listen", "");
        Client before(crashed_address);
        EXPECT_TRUE(before.connected()) << "the crash host's proxy was listening";
    }
    ::kill(pid, SIGKILL);  // whatever happened: the crash host must not outlive the test
    int status = 0;
    ::waitpid(pid, &status, 0);
    ASSERT_FALSE(line.empty()) << "the crashing host never prepared";
    EXPECT_EQ(records_in(state_dir_ + "/fault_proxy").size(), 2U) << "its record and mine";

    const Client after(crashed_address);
    EXPECT_FALSE(after.connected()) << "the proxy was a thread of the host: it died with it";
    EXPECT_EQ(after.connect_errno(), ECONNREFUSED);

    const json swept = json::parse(live->sweep(json{{"state_dir", state_dir_}}.dump()));
    std::cout << "[ swept     ] " << swept.dump() << "\n";
    ASSERT_EQ(swept["removed"].size(), 1U);
    EXPECT_NE(swept["removed"][0].get<std::string>().find(crashed_address), std::string::npos);
    const auto left = records_in(state_dir_ + "/fault_proxy");
    ASSERT_EQ(left.size(), 1U) << "the live host's record stays";
    EXPECT_NE(left[0].filename().string().find(std::to_string(::getpid())), std::string::npos);
    Client still(mine.upstream());
    EXPECT_EQ(still.exchange("alive\n"), Client::Outcome::ok) << "sweep left the live proxy alone";
}

// A network namespace made for the test, with loopback up; deleted however the test ends.
struct TestNamespace {
    std::string name = "sbxtest-proxy-" + std::to_string(::getpid());
    bool made = false;
    TestNamespace() {
        made =
            test::run_command({"/usr/sbin/ip", "netns", "add", name}).exit_code == 0 &&
            test::run_command({"/usr/sbin/ip", "-n", name, "link", "set", "lo", "up"}).exit_code ==
                0;
    }
    ~TestNamespace() { (void)test::run_command({"/usr/sbin/ip", "netns", "delete", name}); }
    TestNamespace(const TestNamespace &) = delete;
    TestNamespace &operator=(const TestNamespace &) = delete;
};

TEST_F(FaultProxyTest, ListensInsideTheRunsNetworkNamespace) {
    // After the network injector, the spec names the namespace the target runs in: the
    // proxy listens on that namespace's loopback and reaches the upstream from the host's.
    ASSERT_EQ(::geteuid(), 0U) << "entering a network namespace needs root";
    ASSERT_EQ(test::first_missing_tool({"ip"}), "") << "is missing: install iproute2";
    const TestNamespace netns;
    ASSERT_TRUE(netns.made) << "ip netns add " << netns.name << " failed";
    const TestUpstream upstream(TestUpstream::Mode::echo);
    auto proxy = injector();
    json in_namespace =
        request({{"SCENARIO_NAME", "netns"}, {"API_LATENCY_MS", "0"}}, upstream.address());
    in_namespace["spec"]["netns"] = "/run/netns/" + netns.name;
    const PreparedRun run(*proxy, in_namespace);
    const std::string address = run.upstream();

    // A client thread that enters the namespace, as the target would run there.
    Client::Outcome inside = Client::Outcome::closed;
    std::thread target([&] {
        const int fd = ::open(("/run/netns/" + netns.name).c_str(), O_RDONLY | O_CLOEXEC);
        if (fd >= 0 && ::setns(fd, CLONE_NEWNET) == 0) {
            Client client(address);
            inside = client.exchange("from inside\n");
        }
        ::close(fd);
    });
    target.join();
    EXPECT_EQ(inside, Client::Outcome::ok);
    const Client outside(address);
    EXPECT_FALSE(outside.connected()) << "the host's loopback has no proxy on that port";
}

}  // namespace
}  // namespace sbx::injectors_test
