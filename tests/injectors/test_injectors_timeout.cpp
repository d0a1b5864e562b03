// The `timeout` injector: a premature kill at a seeded moment in [10%, 90%] of
// timeout_kill_max_ms, carried out by the real executor (result TO), only when the preset
// lists timeout and sets no TIMEOUT.
#include <algorithm>
#include <chrono>
#include <set>

#include "resource_injector_fixture.hpp"

namespace sbx::injectors_test {
namespace {

json timeout_preset() {
    return {{"FAILURE_MODES", "timeout"}};
}

TEST_F(ResourceInjectorTest, TimeoutKillsTheRunEarlyAtASeededMomentAndSaysTO) {
    const auto injector = timeout_plugin()->create({{"timeout_kill_max_ms", 1000}});
    const auto started = std::chrono::steady_clock::now();
    const InjectedRun run = run_injected(*injector, timeout_preset(), {{"argv", {"sleep", "30"}}});
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    ASSERT_TRUE(run.response["active"]) << run.response.dump();
    const auto kill_ms = run.response["timeout"]["kill_ms"].get<std::int64_t>();
    EXPECT_GE(kill_ms, 100);
    EXPECT_LE(kill_ms, 900);
    EXPECT_EQ(run.spec()["limits"]["timeout_ms"], kill_ms);
    EXPECT_EQ(run.result["status"], "TO") << run.result.dump(2);
    EXPECT_EQ(run.result["limit"], "timeout");
    // Killed at its moment, not at the end of the 30 s sleep (bounds wide enough for a
    // loaded machine: this is no timing benchmark).
    EXPECT_GE(run.result["wall_s"].get<double>(), static_cast<double>(kill_ms) / 1000 - 0.01);
    EXPECT_LT(run.result["wall_s"].get<double>(), 15.0);
    EXPECT_LT(seconds, 15.0);
}

TEST_F(ResourceInjectorTest, TimeoutMomentIsSeededAndSpreadOverTheWindow) {
    const auto injector = timeout_plugin()->create(json::object());
    const auto moment = [&](const std::string &run_id, const auto &plugin) {
        const json response = json::parse(plugin->prepare(
            request(timeout_preset(), {{"run_id", run_id}, {"argv", {"true"}}}).dump()));
        plugin->teardown(response["state"].dump());
        return response["timeout"]["kill_ms"].get<std::int64_t>();
    };
    // Same run, same seed: the same moment, also from another instance and another host pid.
    EXPECT_EQ(moment("4242-7", injector), moment("4242-7", injector));
    EXPECT_EQ(moment("4242-7", injector), moment("99-7", timeout_plugin()->create(json::object())));
    EXPECT_NE(moment("4242-7", injector),
              moment("4242-7", timeout_plugin()->create({{"seed", 1}})));
    std::set<std::int64_t> moments;
    for (int n = 1; n <= 200; ++n) {
        moments.insert(moment("4242-" + std::to_string(n), injector));
    }
    EXPECT_GE(*moments.begin(), 200);  // 10% of the default 2000 ms
    EXPECT_LE(*moments.rbegin(), 1800);
    EXPECT_LT(*moments.begin(), 400) << "the early end of the window is never drawn";
    EXPECT_GT(*moments.rbegin(), 1600) << "the late end of the window is never drawn";
    EXPECT_GT(moments.size(), 150U);
}

TEST_F(ResourceInjectorTest, TimeoutActsOnlyWhenListedAndWithoutAPresetTimeout) {
    const auto injector = timeout_plugin()->create(json::object());
    const json spec = {{"argv", {"true"}}, {"limits", {{"timeout_ms", 60000}}}};
    for (const json &preset :
         {json{{"FAILURE_MODES", "cpu_spike"}},
          json{{"FAILURE_MODES", {"timeout"}}, {"TIMEOUT", "30s"}}, json::object()}) {
        const json response = json::parse(injector->prepare(request(preset, spec).dump()));
        EXPECT_FALSE(response["active"]) << preset.dump();
        EXPECT_FALSE(response.contains("spec")) << "the spec must be left as it was";
        injector->teardown(response["state"].dump());
    }
    // A step's own shorter limit stays: it would have ended the run first.
    const json shorter = json::parse(
        injector->prepare(request({{"FAILURE_MODES", "network, timeout"}},
                                  {{"argv", {"true"}}, {"limits", {{"timeout_ms", 50}}}})
                              .dump()));
    EXPECT_TRUE(shorter["active"]);
    EXPECT_EQ(shorter["spec"]["limits"]["timeout_ms"], 50);
    EXPECT_EQ(json::parse(injector->sweep(json{{"state_dir", state_dir_}}.dump()))["removed"],
              json::array());
}

}  // namespace
}  // namespace sbx::injectors_test
