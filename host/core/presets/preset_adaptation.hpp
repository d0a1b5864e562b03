// adapt-presets (docs/user-guide.md "adapt-presets"): each preset's keys stepped one rung
// milder or harsher on their ladders, by the rules or by the learned policy, from what the
// history of the preset's scenario says. The baseline `normal` is never adapted.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "presets/preset.hpp"
#include "presets/q_policy.hpp"
#include "presets/trend_signals.hpp"

namespace sbx::presets {

struct KeyDecision {
    std::string key;
    Step step = Step::keep;
    std::string why;  // "rules: ROI flat", "learned", "explored at random"
    StepResult result;
};

struct PresetDecision {
    std::string scenario;
    // q_learning, or rules (asked for, or the learned policy's fallback while the scenario
    // has fewer than kLearnedAfterSamples ROI values); "" for a preset left as written.
    std::string strategy;
    std::string note;  // why a preset was left as written, or why the rules stood in
    TrendSignals signals;
    std::optional<double> reward;  // learned from the scenario's previous steps
    std::vector<KeyDecision> keys;

    [[nodiscard]] int changed() const;
};

// {scenario, strategy, note, signals, reward, keys: [{key, step, why, from, to, changed,
// note}]}: what adapt-presets --json prints and the autonomous loop records.
nlohmann::json to_json(const PresetDecision &decision);

struct AdaptationInputs {
    std::string strategy = "q_learning";  // or rules
    // Where the history comes from, so a policy learns only from the history its steps were
    // taken against: "roi_history.json", "loop 12".
    std::string source;
    double tolerance = 0.01;  // what counts as a move of the ROI or synergy
    uint64_t seed = 0;        // of the learned policy's random steps
};

// The seeds' threshold: the learned policy steps a scenario once it has this many ROI values.
constexpr size_t kLearnedAfterSamples = 3;

struct Adaptation {
    std::vector<Preset> presets;  // same names, same order
    std::vector<PresetDecision> decisions;
};

// `history` gives the series of a scenario by name (empty when it has none). With q_learning
// the policy first learns from each scenario's pending steps, then remembers the new ones.
Adaptation adapt_presets(const std::vector<Preset> &presets,
                         const std::function<ScenarioSeries(const std::string &)> &history,
                         QPolicy &policy, const AdaptationInputs &inputs);

}  // namespace sbx::presets
