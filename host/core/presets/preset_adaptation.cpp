#include "presets/preset_adaptation.hpp"

#include <sbx/random.hpp>

#include "presets/adaptation_rules.hpp"

namespace sbx::presets {

int PresetDecision::changed() const {
    int count = 0;
    for (const auto &key : keys) {
        count += key.result.changed ? 1 : 0;
    }
    return count;
}

nlohmann::json to_json(const PresetDecision &decision) {
    using nlohmann::json;
    json keys = json::array();
    for (const auto &key : decision.keys) {
        keys.push_back({{"key", key.key},
                        {"step", step_name(key.step)},
                        {"why", key.why},
                        {"from", key.result.from},
                        {"to", key.result.to},
                        {"changed", key.result.changed},
                        {"note", key.result.note}});
    }
    const auto &signals = decision.signals;
    return {{"scenario", decision.scenario},
            {"strategy", decision.strategy},
            {"note", decision.note},
            {"signals",
             {{"roi", trend_name(signals.roi)},
              {"synergy", trend_name(signals.synergy)},
              {"security", level_name(signals.security)},
              {"roi_samples", signals.roi_samples}}},
            {"reward", decision.reward ? json(*decision.reward) : json()},
            {"keys", keys}};
}

Adaptation adapt_presets(const std::vector<Preset> &presets,
                         const std::function<ScenarioSeries(const std::string &)> &history,
                         QPolicy &policy, const AdaptationInputs &inputs) {
    const bool learning = inputs.strategy == "q_learning";
    Adaptation adaptation;
    for (const auto &preset : presets) {
        Preset adapted = preset;
        PresetDecision decision;
        decision.scenario = preset.name;
        if (preset.name == "normal") {
            decision.note = "the baseline stays as written";
            adaptation.presets.push_back(std::move(adapted));
            adaptation.decisions.push_back(std::move(decision));
            continue;
        }
        decision.signals = trend_signals(history(preset.name), inputs.tolerance);
        const std::string state = state_key(decision.signals);
        if (learning) {
            decision.reward = policy.learn(preset.name, inputs.source, decision.signals);
        }
        const bool learned = learning && decision.signals.roi_samples >= kLearnedAfterSamples;
        decision.strategy = learned ? "q_learning" : "rules";
        if (learning && !learned) {
            decision.note = "rules until the scenario has " + std::to_string(kLearnedAfterSamples) +
                            " ROI values (it has " + std::to_string(decision.signals.roi_samples) +
                            ")";
        }
        SplitMix64 rng(inputs.seed ^ fnv1a64(preset.name));
        PendingSteps taken{inputs.source,
                           state,
                           {},
                           decision.signals.roi_latest,
                           decision.signals.synergy_latest,
                           decision.signals.roi_samples};
        for (const auto &ladder : ladders()) {
            if (!adapted.body.contains(ladder.key)) {
                continue;
            }
            const RuleStep rule = rule_step(ladder.key, decision.signals);
            KeyDecision key{
                ladder.key, rule.step, "rules: " + (rule.why.empty() ? "no signal" : rule.why), {}};
            if (learned) {
                bool explored = false;
                key.step = policy.choose(state, ladder.key, rule.step, rng, explored);
                key.why = explored ? "explored at random" : "learned";
            }
            key.result = step_key(adapted.body, ladder, key.step);
            taken.steps[ladder.key] = key.step;
            decision.keys.push_back(std::move(key));
        }
        if (learning && !taken.steps.empty()) {
            policy.pending[preset.name] = std::move(taken);
        }
        adaptation.presets.push_back(std::move(adapted));
        adaptation.decisions.push_back(std::move(decision));
    }
    return adaptation;
}

}  // namespace sbx::presets
