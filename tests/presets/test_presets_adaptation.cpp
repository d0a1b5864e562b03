// Preset adaptation's parts: one step on a ladder (between rungs, at the ends, the bandwidth
// bounds following), the signals of a series, the rules' votes, and the Q-learning update
// and choice, each against numbers worked out by hand (docs/semantics.md "Adapting presets").
#include <gtest/gtest.h>

#include "presets/adaptation_rules.hpp"
#include "presets/preset_adaptation.hpp"
#include "presets/preset_ladders.hpp"
#include "presets/q_policy.hpp"
#include "presets/trend_signals.hpp"

namespace sbx::presets {
namespace {

using nlohmann::json;

const Ladder &ladder_of(const std::string &key) {
    for (const auto &ladder : ladders()) {
        if (ladder.key == key) {
            return ladder;
        }
    }
    throw std::logic_error("no ladder " + key);
}

TEST(PresetLadders, AStepGoesOneRungAndStopsAtTheEnds) {
    json preset = {{"MEMORY_LIMIT", "512Mi"}, {"CPU_LIMIT", "3"}};
    auto result = step_key(preset, ladder_of("MEMORY_LIMIT"), Step::harsher);
    EXPECT_TRUE(result.changed);
    EXPECT_EQ(preset["MEMORY_LIMIT"], "256Mi");
    // 3 lies between the rungs 4 and 2: milder is the next rung above it, harsher below.
    json between = preset;
    step_key(between, ladder_of("CPU_LIMIT"), Step::milder);
    EXPECT_EQ(between["CPU_LIMIT"], "4");
    step_key(preset, ladder_of("CPU_LIMIT"), Step::harsher);
    EXPECT_EQ(preset["CPU_LIMIT"], "2");
    // 1Gi is 1024Mi on the size scale.
    json gib = {{"MEMORY_LIMIT", "1Gi"}};
    step_key(gib, ladder_of("MEMORY_LIMIT"), Step::milder);
    EXPECT_EQ(gib["MEMORY_LIMIT"], "2048Mi");

    json harshest = {{"THREAT_INTENSITY", "90"}};
    result = step_key(harshest, ladder_of("THREAT_INTENSITY"), Step::harsher);
    EXPECT_FALSE(result.changed);
    EXPECT_EQ(result.note, "at the harshest rung");
    EXPECT_EQ(harshest["THREAT_INTENSITY"], "90");

    json absent = json::object();
    result = step_key(absent, ladder_of("NETWORK_LATENCY_MS"), Step::harsher);
    EXPECT_FALSE(result.changed);
    EXPECT_FALSE(absent.contains("NETWORK_LATENCY_MS")) << "adapting never adds a fault";
}

TEST(PresetLadders, TheBandwidthBoundsFollowTheLimit) {
    json preset = {
        {"MIN_BANDWIDTH", "5mbps"}, {"BANDWIDTH_LIMIT", "5mbps"}, {"MAX_BANDWIDTH", "10mbps"}};
    step_key(preset, ladder_of("BANDWIDTH_LIMIT"), Step::harsher);
    EXPECT_EQ(preset["BANDWIDTH_LIMIT"], "1mbps");
    EXPECT_EQ(preset["MIN_BANDWIDTH"], "1mbps");
    EXPECT_EQ(preset["MAX_BANDWIDTH"], "10mbps");
    step_key(preset, ladder_of("BANDWIDTH_LIMIT"), Step::milder);
    step_key(preset, ladder_of("BANDWIDTH_LIMIT"), Step::milder);
    step_key(preset, ladder_of("BANDWIDTH_LIMIT"), Step::milder);
    EXPECT_EQ(preset["BANDWIDTH_LIMIT"], "50mbps");
    EXPECT_EQ(preset["MAX_BANDWIDTH"], "50mbps");
}

TEST(TrendSignals, TheLastThreeChangesAgainstTheTolerance) {
    const auto rising = trend_signals({{0.5, 0.6, 0.7}, {0.2}, {0.9}}, 0.01);
    EXPECT_EQ(rising.roi, Trend::rising);
    EXPECT_EQ(rising.synergy, Trend::rising);
    EXPECT_EQ(rising.security, Level::high);
    EXPECT_EQ(state_key(rising), "roi=rising synergy=rising security=high");
    // Changes +0.5, -0.5, 0: their mean is 0, flat.
    EXPECT_EQ(trend_signals({{0.5, 1.0, 0.5, 0.5}, {}, {0.3}}, 0.01).roi, Trend::flat);
    const auto one = trend_signals({{1.0}, {}, {}}, 0.01);
    EXPECT_EQ(one.roi, Trend::unknown);
    EXPECT_EQ(one.roi_samples, 1u);
    EXPECT_EQ(one.security, Level::unknown);
}

TEST(AdaptationRules, VotesAsTheTableSays) {
    TrendSignals held;
    held.roi_latest = 1.0;
    held.roi = Trend::flat;
    EXPECT_EQ(rule_step("NETWORK_LATENCY_MS", held).step, Step::harsher);
    EXPECT_EQ(rule_step("CPU_LIMIT", held).why, "held every run");

    TrendSignals stalled;
    stalled.roi_latest = 0.5;
    stalled.roi = Trend::flat;
    EXPECT_EQ(rule_step("MEMORY_LIMIT", stalled).step, Step::milder);
    EXPECT_EQ(rule_step("THREAT_INTENSITY", stalled).step, Step::keep);
    // Positive synergy tightens CPU (+1) against the stall's -1: no step.
    stalled.synergy = Trend::rising;
    EXPECT_EQ(rule_step("CPU_LIMIT", stalled).step, Step::keep);
    // ... and eases the network.
    EXPECT_EQ(rule_step("NETWORK_LATENCY_MS", stalled).step, Step::milder);
    stalled.security = Level::high;
    EXPECT_EQ(rule_step("THREAT_INTENSITY", stalled).step, Step::harsher);
}

TEST(QPolicy, LearnsTheMoveAStepCausedAndPrefersItThen) {
    QPolicy policy;
    policy.epsilon = 0;  // no random steps: the choice is the table's
    TrendSignals before;
    before.roi_latest = 1.0;
    before.roi_samples = 1;
    policy.pending["p"] = {"h", state_key(before), {{"MEMORY_LIMIT", Step::harsher}},
                           1.0, std::nullopt,      1};
    TrendSignals after;
    after.roi_latest = 0.25;
    after.roi_samples = 1;
    EXPECT_FALSE(policy.learn("p", "h", after)) << "no new ROI value: nothing to learn";
    after.roi_samples = 2;
    EXPECT_FALSE(policy.learn("p", "other", after)) << "another history's steps";
    const auto reward = policy.learn("p", "h", after);
    ASSERT_TRUE(reward);
    EXPECT_DOUBLE_EQ(*reward, 0.75);
    // alpha (0.75 + gamma * 0 - 0) = 0.375.
    const auto &row = policy.table[state_key(before)]["MEMORY_LIMIT"];
    EXPECT_DOUBLE_EQ(row.value[2], 0.375);
    EXPECT_EQ(row.visits[2], 1);
    EXPECT_TRUE(policy.pending.empty());

    SplitMix64 rng(1);
    bool explored = true;
    EXPECT_EQ(policy.choose(state_key(before), "MEMORY_LIMIT", Step::milder, rng, explored),
              Step::harsher);
    EXPECT_FALSE(explored);
    // An unknown row: every value 0, so the rules' step.
    EXPECT_EQ(policy.choose("roi=falling synergy=unknown security=unknown", "CPU_LIMIT",
                            Step::milder, rng, explored),
              Step::milder);
}

TEST(PresetAdaptation, TheBaselineStaysAndTheRulesStepWhileTheHistoryIsShort) {
    std::vector<Preset> presets = {
        make_preset({{"SCENARIO_NAME", "normal"}}, "t", 0),
        make_preset({{"SCENARIO_NAME", "tight"}, {"CPU_LIMIT", "2"}}, "t", 1)};
    QPolicy policy;
    const auto adaptation = adapt_presets(presets,
                                          [](const std::string &) {
                                              return ScenarioSeries{{1.0}, {}, {}};
                                          },
                                          policy, {"q_learning", "h", 0.01, 7});
    ASSERT_EQ(adaptation.presets.size(), 2u);
    EXPECT_EQ(adaptation.presets[0].body, presets[0].body);
    EXPECT_EQ(adaptation.decisions[0].strategy, "");
    EXPECT_EQ(adaptation.decisions[1].strategy, "rules");
    EXPECT_EQ(adaptation.presets[1].body["CPU_LIMIT"], "1");
    EXPECT_EQ(adaptation.presets[1].name, "tight");
    ASSERT_TRUE(policy.pending.count("tight"));
    EXPECT_EQ(policy.pending["tight"].steps.at("CPU_LIMIT"), Step::harsher);
}

}  // namespace
}  // namespace sbx::presets
