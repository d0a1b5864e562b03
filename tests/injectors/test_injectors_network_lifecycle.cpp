// The network injector's contract with the host: when it is active, refusal of bad preset
// values, one namespace shared by the runs of a preset, teardown, sweep after a SIGKILLed
// host, and the local executor's handling of the spec's `netns` field.
#include <signal.h>
#include <sys/wait.h>

#include "json_log.hpp"
#include "machine.hpp"
#include "network_fixture.hpp"

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

TEST_F(NetworkTest, DescribesAnInjectorWithAClosedSchema) {
    const auto &descriptor = network_plugin()->descriptor();
    EXPECT_EQ(descriptor.id, "network");
    EXPECT_EQ(descriptor.kind, SBX_KIND_INJECTOR);
    EXPECT_EQ(descriptor.config_schema["additionalProperties"], false);
    EXPECT_ANY_THROW((void)network_plugin()->create({{"impairment", "tc"}}));
    EXPECT_ANY_THROW((void)network_plugin()->create({{"uplink_pool", "192.0.2.0/31"}}));
}

TEST_F(NetworkTest, InactiveWithoutNetworkKeysOrModes) {
    auto network = injector();
    const json response = json::parse(network->prepare(
        request({{"CPU_LIMIT", "1"}, {"FAILURE_MODES", "cpu_spike, disk"}}, {"/bin/true"}).dump()));
    EXPECT_FALSE(response.value("active", true));
    EXPECT_FALSE(response.contains("spec")) << "an inactive injector leaves the spec alone";
    network->teardown(response.value("state", json()).dump());
}

TEST_F(NetworkTest, EachNetworkKeyOrModeActivatesIt) {
    auto network = injector();
    for (const json &preset :
         {json{{"FAILURE_MODES", json::array({"network"})}},
          json{{"FAILURE_MODES", "cpu_spike, network_partition"}}, json{{"NETWORK_JITTER_MS", "0"}},
          json{{"PACKET_DUPLICATION", "0"}}, json{{"MIN_BANDWIDTH", "1gbps"}}}) {
        PreparedRun run(*network, request(preset, {"/bin/true"}));
        EXPECT_TRUE(run.response().value("active", false)) << preset.dump();
        EXPECT_EQ(run.spec().value("netns", ""), run.network().value("netns", "?"));
    }
}

TEST_F(NetworkTest, RefusesValuesThatAreNotTheUnitsOfThePreset) {
    auto network = injector();
    for (const json &preset : {json{{"PACKET_LOSS", "150%"}}, json{{"PACKET_LOSS", "-0.1"}},
                               json{{"NETWORK_LATENCY_MS", "100ms"}},
                               json{{"BANDWIDTH_LIMIT", "10MB"}}, json{{"BANDWIDTH_LIMIT", "0"}},
                               json{{"MIN_BANDWIDTH", "10mbps"}, {"MAX_BANDWIDTH", "1mbps"}}}) {
        EXPECT_EQ(prepare_status(*network, request(preset, {"/bin/true"})), SBX_INVALID)
            << preset.dump();
    }
}

TEST_F(NamedNetworkTest, RunsOfOnePresetShareOneNamespaceUntilTheInstanceEnds) {
    const json preset = {{"NETWORK_LATENCY_MS", "10"}, {"SCENARIO_NAME", "shared"}};
    std::string shared;
    std::string other;
    {
        auto network = injector();
        {
            PreparedRun first(*network, request(preset, {"/bin/true"}));
            PreparedRun second(*network, request(preset, {"/bin/true"}));
            shared = first.network().value("namespace", "");
            EXPECT_FALSE(first.network().value("reused", true));
            EXPECT_TRUE(second.network().value("reused", false));
            EXPECT_EQ(second.network().value("namespace", ""), shared);
            // A second instance (another worker of the host) shares it too.
            auto worker = injector();
            PreparedRun third(*worker, request(preset, {"/bin/true"}));
            EXPECT_EQ(third.network().value("namespace", ""), shared);
            PreparedRun different(*network, request({{"NETWORK_LATENCY_MS", "10"}}, {"/bin/true"}));
            other = different.network().value("namespace", "");
            EXPECT_NE(other, shared);
        }
        EXPECT_TRUE(namespace_exists(shared)) << "kept for the preset's next run";
        EXPECT_TRUE(namespace_exists(other));
        EXPECT_TRUE(std::filesystem::exists(state_dir_ + "/network/" + shared));
    }
    EXPECT_FALSE(namespace_exists(shared)) << "destroyed with the last instance holding it";
    EXPECT_FALSE(namespace_exists(other));
    EXPECT_TRUE(std::filesystem::is_empty(state_dir_ + "/network")) << "records removed";
}

TEST_F(NamedNetworkTest, KeepNamespacesBoundsTheIdleOnes) {
    auto network = injector({{"keep_namespaces", 1}});
    std::vector<std::string> names;
    for (const char *scenario : {"a", "b", "c"}) {
        PreparedRun run(
            *network, request({{"FAILURE_MODES", "network_partition"}, {"SCENARIO_NAME", scenario}},
                              {"/bin/true"}));
        names.push_back(run.network().value("namespace", ""));
    }
    EXPECT_FALSE(namespace_exists(names[0]));
    EXPECT_FALSE(namespace_exists(names[1]));
    EXPECT_TRUE(namespace_exists(names[2])) << "the most recent one is kept";
}

TEST_F(NamedNetworkTest, ANamespaceLivesWhileAnyInstanceHoldsIt) {
    const json preset = {{"FAILURE_MODES", "network_partition"}, {"SCENARIO_NAME", "two workers"}};
    auto first = injector();
    auto second = injector();
    std::string name;
    {
        PreparedRun one(*first, request(preset, {"/bin/true"}));
        PreparedRun two(*second, request(preset, {"/bin/true"}));
        name = one.network().value("namespace", "");
        EXPECT_EQ(two.network().value("namespace", ""), name);
    }
    first.reset();
    EXPECT_TRUE(namespace_exists(name)) << "the second worker's instance still holds it";
    second.reset();
    EXPECT_FALSE(namespace_exists(name));
}

// A namespace this tool did not make, removed when the test ends however it ends.
struct DecoyNamespace {
    std::string name = "sbxtest-decoy-" + std::to_string(::getpid());
    DecoyNamespace() {
        EXPECT_EQ(test::run_command({"/usr/sbin/ip", "netns", "add", name}).exit_code, 0);
    }
    ~DecoyNamespace() { (void)test::run_command({"/usr/sbin/ip", "netns", "delete", name}); }
    DecoyNamespace(const DecoyNamespace &) = delete;
    DecoyNamespace &operator=(const DecoyNamespace &) = delete;
};

// A host that prepared a namespace under `state_dir`, then SIGKILLed: the network it
// reported (empty when it never prepared), and its pid.
struct CrashedHost {
    json network;
    int pid = 0;
};
CrashedHost crash_a_host(const std::string &state_dir) {
    const std::string log = state_dir + "/crash.log";
    CrashedHost crashed;
    crashed.pid = test::spawn_background(
        {SBX_NET_CRASH_HOST_PATH, SBX_NETWORK_INJECTOR_PATH, state_dir}, {}, "", log);
    const std::string line = test::wait_for_json_line(log);
    ::kill(crashed.pid, SIGKILL);  // whatever happened: the crash host must not outlive the test
    int status = 0;
    ::waitpid(crashed.pid, &status, 0);
    crashed.network = line.empty() ? json() : json::parse(line);
    return crashed;
}

TEST_F(NamedNetworkTest, SweepRemovesWhatASigkilledHostLeftAndNothingElse) {
    // Things sweep must not touch: a namespace it did not make, and a live host's record.
    const DecoyNamespace decoy_namespace;
    const std::string &decoy = decoy_namespace.name;
    auto live = injector();
    PreparedRun mine(*live, request({{"FAILURE_MODES", "network_partition"}}, {"/bin/true"}));
    const std::string my_namespace = mine.network().value("namespace", "");

    const CrashedHost crashed = crash_a_host(state_dir_);
    const int pid = crashed.pid;
    ASSERT_FALSE(crashed.network.is_null()) << "the crashing host never prepared";
    const json &left = crashed.network;
    const std::string netns = left.value("namespace", "");
    const std::string link = left["uplink"].value("link", "");
    EXPECT_EQ(left.value("bandwidth", ""), "tbf");
    EXPECT_TRUE(namespace_exists(netns)) << "a SIGKILLed host leaves its namespace";
    EXPECT_TRUE(link_exists(link)) << "and its uplink";
    EXPECT_FALSE(std::filesystem::exists("/proc/" + std::to_string(pid)))
        << "the NFQUEUE helper is a thread: nothing of the host survives";

    const json swept = json::parse(live->sweep(json{{"state_dir", state_dir_}}.dump()));
    std::cout << "[ swept     ] " << swept.dump() << "\n";
    EXPECT_NE(swept["removed"].dump().find(netns), std::string::npos);
    EXPECT_FALSE(namespace_exists(netns));
    EXPECT_FALSE(link_exists(link));
    EXPECT_FALSE(std::filesystem::exists(state_dir_ + "/network/" + netns));
    const std::string prefix = "sbx-" + std::to_string(pid) + "-";
    for (const auto &entry : std::filesystem::directory_iterator("/run/netns")) {
        EXPECT_NE(entry.path().filename().string().rfind(prefix, 0), 0U) << entry.path();
    }
    const auto rules = test::run_command({"/usr/sbin/iptables-save"});
    EXPECT_EQ(rules.out.find("sbx-network"), std::string::npos) << "no rule on the host";

    EXPECT_TRUE(namespace_exists(decoy)) << "sweep touched a namespace it did not make";
    EXPECT_TRUE(namespace_exists(my_namespace)) << "sweep touched a live host's namespace";
}

// A SIGKILLed host whose data dir went away (a deleted test folder) left a namespace and no
// record: sweep finds it by its name, whose host pid no process has, with any state_dir or
// none. The same crash's leftovers, with the record deleted as a user would.
TEST_F(NamedNetworkTest, SweepFindsADeadHostsNamespaceWhoseRecordIsGone) {
    const CrashedHost crashed = crash_a_host(state_dir_);
    ASSERT_FALSE(crashed.network.is_null()) << "the crashing host never prepared";
    const json &left = crashed.network;
    const std::string netns = left.value("namespace", "");
    const std::string link = left["uplink"].value("link", "");
    ASSERT_TRUE(namespace_exists(netns));
    std::filesystem::remove_all(state_dir_ + "/network");

    auto sweeper = injector();
    const json listed = json::parse(sweeper->sweep(json{{"dry_run", true}}.dump()));
    EXPECT_NE(listed["removed"].dump().find("network namespace " + netns), std::string::npos)
        << listed.dump();
    EXPECT_TRUE(namespace_exists(netns)) << "a dry run removes nothing";
    const json swept = json::parse(sweeper->sweep(json::object().dump()));
    EXPECT_NE(swept["removed"].dump().find("link " + link), std::string::npos) << swept.dump();
    EXPECT_FALSE(namespace_exists(netns));
    EXPECT_FALSE(link_exists(link));
}

TEST_F(NetworkTest, TheExecutorSaysWhyItCannotEnterANamespace) {
    auto executor = local_plugin()->create(json::object());
    const json missing = json::parse(
        executor->run(json{{"argv", {"/bin/true"}}, {"netns", "/run/netns/sbx-no-such"}}.dump()));
    EXPECT_EQ(missing.value("status", ""), "XX");
    EXPECT_NE(missing.value("error", "")
                  .find("cannot open network namespace "
                        "'/run/netns/sbx-no-such'"),
              std::string::npos)
        << missing.dump();
    const json not_a_namespace = json::parse(
        executor->run(json{{"argv", {"/bin/true"}}, {"netns", "/etc/hostname"}}.dump()));
    EXPECT_EQ(not_a_namespace.value("status", ""), "XX");
    EXPECT_NE(not_a_namespace.value("error", "").find("cannot enter network namespace"),
              std::string::npos)
        << not_a_namespace.dump();
    const json wrong_type = json::parse(json{{"argv", {"/bin/true"}}, {"netns", 7}}.dump());
    EXPECT_ANY_THROW((void)executor->run(wrong_type.dump()));
}

TEST_F(NetworkTest, ForcedNetemIsRefusedClearlyWhereTheKernelHasNone) {
    auto automatic = injector();
    PreparedRun probe_run(*automatic, request({{"NETWORK_LATENCY_MS", "5"}}, {"/bin/true"}));
    const bool has_netem = probe_run.network().value("impairment", "") == "netem";
    EXPECT_EQ(has_netem, test::kernel_offers_netem())
        << "the injector's netem probe disagrees with the kernel: " << probe_run.network().dump();
    auto forced = injector({{"impairment", "netem"}});
    try {
        PreparedRun run(
            *forced, request({{"NETWORK_LATENCY_MS", "5"}, {"SCENARIO_NAME", "x"}}, {"/bin/true"}));
        EXPECT_TRUE(has_netem) << "netem was forced on a kernel without it";
    } catch (const plugins::PluginCallError &e) {
        EXPECT_FALSE(has_netem) << e.what();
        EXPECT_EQ(e.status(), SBX_UNSUPPORTED);
        EXPECT_NE(std::string(e.what()).find("no netem"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace sbx::injectors_test
