// The `concurrency_spike` injector: THREAD_BURST threads that a target sees competing with
// it (in /proc and in the CPU it gets), waves of ASYNC_TASK_BURST short tasks coming and
// going, metrics that say both, nothing left after teardown, and sweep after a killed host.
#include <signal.h>
#include <sys/wait.h>

#include <chrono>

#include "json_log.hpp"
#include "machine.hpp"
#include "plugins/plugin.hpp"
#include "resource_injector_fixture.hpp"

namespace sbx::injectors_test {
namespace {

// Prints the burst's thread count once, then the largest count seen over 1000 samples of
// /proc/PID/task (shell builtins only: no fork per sample): the competing threads plus the
// main thread, plus the tasks of a wave when one is in flight.
const char *kWatchScript = R"sh(
pid=$SANDBOX_THREAD_BURST_PID
echo "threads $(grep '^Threads:' /proc/$pid/status | tr -dc 0-9)"
max=0
i=0
while [ $i -lt 1000 ]; do
  set -- /proc/$pid/task/*
  [ $# -gt $max ] && max=$#
  i=$((i + 1))
done
echo "max $max"
)sh";

// Running, as opposed to gone or a zombie nobody has reaped yet (an orphan's reaper may be
// slow to come).
bool running(int pid) {
    const std::string stat = read_file("/proc/" + std::to_string(pid) + "/stat");
    const auto close_paren = stat.rfind(')');
    return close_paren != std::string::npos && close_paren + 2 < stat.size() &&
           stat[close_paren + 2] != 'Z' && stat[close_paren + 2] != 'X';
}

long number_after(const std::string &text, const std::string &label) {
    const auto at = text.find(label + " ");
    return at == std::string::npos ? -1 : std::stol(text.substr(at + label.size() + 1));
}

TEST_F(ResourceInjectorTest, ThreadBurstCompetesDuringTheRunAndTasksComeAndGo) {
    const auto injector = concurrency_spike_plugin()->create(json::object());
    const json preset = {{"THREAD_BURST", "8"}, {"ASYNC_TASK_BURST", "16"}};
    // `filesystem: host`: the host's /proc, where the burst (a host process) is seen.
    const InjectedRun run = run_injected(
        *injector, preset, {{"argv", {"/bin/sh", "-c", kWatchScript}}, {"filesystem", "host"}});
    ASSERT_TRUE(run.response["active"]) << run.response.dump();
    EXPECT_EQ(run.response["metrics"], json({{"thread_burst", 8}, {"async_task_burst", 16}}));
    ASSERT_EQ(run.result["status"], "OK") << run.result.dump(2);
    const std::string out = run.result["stdout"];
    EXPECT_GE(number_after(out, "threads"), 9) << out;
    // Short tasks on top of the competing threads in some sample (how many of a wave are
    // alive at once depends on how busy the machine is; without waves it stays at 9).
    EXPECT_GE(number_after(out, "max"), 9 + 2) << out;
    const int pid = std::stoi(run.spec()["env"]["SANDBOX_THREAD_BURST_PID"].get<std::string>());
    EXPECT_FALSE(running(pid)) << "the burst survived its teardown";
    EXPECT_TRUE(std::filesystem::is_empty(std::filesystem::path(state_dir_) / "concurrency_spike"));
}

TEST_F(ResourceInjectorTest, ThreadBurstTakesCpuFromABusyTarget) {
    const auto injector = concurrency_spike_plugin()->create(json::object());
    // Four threads per usable core at half a core each ask for twice the cores there are: a
    // busy loop alone gets a whole core per wall second; beside the burst it cannot.
    const std::string threads = std::to_string(4 * test::usable_cores());
    const InjectedRun run =
        run_injected(*injector, {{"THREAD_BURST", threads}}, {{"argv", {target(), "spin", "600"}}});
    ASSERT_EQ(run.result["status"], "OK") << run.result.dump(2);
    const double share =
        run.result["cpu_user_s"].get<double>() / run.result["wall_s"].get<double>();
    EXPECT_LT(share, 0.75) << "CPU seconds per wall second beside " << threads
                           << " competing threads on " << test::usable_cores() << " cores";
}

TEST_F(ResourceInjectorTest, ConcurrencySpikeModeAloneUsesTheCanonicalLowCounts) {
    const auto injector = concurrency_spike_plugin()->create(json::object());
    const json response = json::parse(injector->prepare(
        request({{"FAILURE_MODES", "concurrency_spike"}}, {{"argv", {"true"}}}).dump()));
    injector->teardown(response["state"].dump());
    EXPECT_EQ(response["metrics"], json({{"thread_burst", 10}, {"async_task_burst", 20}}));
}

TEST_F(ResourceInjectorTest, MaxThreadsCutsTheWavesAndTheBurst) {
    const auto injector = concurrency_spike_plugin()->create(json::object());
    const json response = json::parse(injector->prepare(
        request({{"THREAD_BURST", "6"}, {"ASYNC_TASK_BURST", "100"}, {"MAX_THREADS", "10"}},
                {{"argv", {"true"}}})
            .dump()));
    injector->teardown(response["state"].dump());
    EXPECT_EQ(response["concurrency_spike"]["threads"], 6);
    EXPECT_EQ(response["concurrency_spike"]["async_tasks"], 4);
    const json over = json::parse(injector->prepare(
        request({{"THREAD_BURST", "12"}, {"MAX_THREADS", "5"}}, {{"argv", {"true"}}}).dump()));
    injector->teardown(over["state"].dump());
    EXPECT_EQ(over["concurrency_spike"]["threads"], 5);
}

TEST_F(ResourceInjectorTest, ConcurrencySpikeIsIdleWithoutItsKeysAndRefusesAbsurdCounts) {
    const auto injector = concurrency_spike_plugin()->create({{"max_threads", 64}});
    for (const json &preset : {json::object(), json{{"THREAD_BURST", "0"}},
                               json{{"FAILURE_MODES", "cpu_spike"}, {"CPU_SPIKE", "1"}}}) {
        const json response =
            json::parse(injector->prepare(request(preset, {{"argv", {"true"}}}).dump()));
        EXPECT_FALSE(response["active"]) << preset.dump();
        EXPECT_FALSE(response.contains("spec")) << "an idle injector leaves the spec alone";
    }
    for (const json &preset : {json{{"THREAD_BURST", "65"}}, json{{"ASYNC_TASK_BURST", "-1"}},
                               json{{"THREAD_BURST", "4294967304"}}, json{{"MAX_THREADS", "x"}}}) {
        try {
            (void)injector->prepare(request(preset, {{"argv", {"true"}}}).dump());
            ADD_FAILURE() << "accepted " << preset.dump();
        } catch (const plugins::PluginCallError &e) {
            EXPECT_EQ(e.status(), SBX_INVALID) << e.what();
            EXPECT_NE(std::string(e.what()).find(preset.items().begin().key()), std::string::npos)
                << e.what();
        }
    }
}

TEST_F(ResourceInjectorTest, ConcurrencySpikeSweepClearsWhatAKilledHostLeft) {
    const json crash_request = request({{"THREAD_BURST", "2"}}, {{"argv", {"true"}}});
    const std::string log = state_dir_ + "/crash.log";
    const int host =
        test::spawn_background({SBX_INJECTOR_CRASH_HOST_PATH, SBX_CONCURRENCY_SPIKE_INJECTOR_PATH,
                                "{}", crash_request.dump()},
                               {}, "", log);
    const std::string line = test::wait_for_json_line(log);
    ASSERT_FALSE(line.empty()) << "the crash host never prepared: " << read_file(log);
    const json response = json::parse(line);
    ASSERT_TRUE(response["active"]) << read_file(log);
    const int burst = response["state"]["pid"];
    const auto injector = concurrency_spike_plugin()->create(json::object());
    // While that host lives, its burst is its own.
    EXPECT_EQ(json::parse(injector->sweep(json{{"state_dir", state_dir_}}.dump()))["removed"],
              json::array());
    ::kill(host, SIGKILL);
    ::waitpid(host, nullptr, 0);
    // The burst dies with its host (parent-death signal); its record is what is left.
    EXPECT_TRUE(test::wait_until([&] { return !running(burst); }))
        << "the burst outlived its SIGKILLed host";
    const json swept = json::parse(injector->sweep(json{{"state_dir", state_dir_}}.dump()));
    ASSERT_EQ(swept["removed"].size(), 1U) << swept.dump();
    EXPECT_EQ(swept["removed"][0].get<std::string>().rfind("burst ", 0), 0U) << swept.dump();
    EXPECT_TRUE(std::filesystem::is_empty(std::filesystem::path(state_dir_) / "concurrency_spike"));
}

}  // namespace
}  // namespace sbx::injectors_test
