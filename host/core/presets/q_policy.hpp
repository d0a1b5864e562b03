// The learned strategy of adapt-presets (docs/semantics.md "Adapting presets"): tabular
// Q-learning over the few states trend_signals gives, one table row per preset key with the
// three steps as actions. The reward of a step is how far the scenario's ROI and synergy
// moved once it was run, |ΔROI| + |Δsynergy|: steps that find settings where the workflow
// behaves differently earn, steps that change nothing earn nothing. (A policy that
// maximised the ROI itself would learn to make every preset mild, and a tester learns
// nothing from presets the program always passes.)
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>
#include <sbx/random.hpp>

#include "presets/preset_ladders.hpp"
#include "presets/trend_signals.hpp"

namespace sbx::presets {

// The values of one (state, key) row: milder, keep, harsher.
struct StepValues {
    std::array<double, 3> value{};
    std::array<int, 3> visits{};
};

// Steps taken and not yet rewarded: what the scenario looked like when they were chosen.
struct PendingSteps {
    std::string source;  // where its history is read: roi_history.json, or a loop
    std::string state;
    std::map<std::string, Step> steps;  // key -> step
    std::optional<double> roi, synergy;
    size_t roi_samples = 0;
};

struct QPolicy {
    double alpha = 0.5;    // learning rate
    double gamma = 0.5;    // how much the next state's best value counts
    double epsilon = 0.1;  // how often a step is drawn at random, to keep exploring
    std::map<std::string, std::map<std::string, StepValues>> table;  // state -> key -> row
    std::map<std::string, PendingSteps> pending;                     // scenario -> steps
    int64_t rewards = 0;                                             // rewards learned so far

    // Rewards the scenario's pending steps when its history (from the same source) has
    // grown since they were chosen, and forgets them; the reward, or nullopt when there was
    // nothing to learn.
    std::optional<double> learn(const std::string &scenario, const std::string &source,
                                const TrendSignals &now);
    // The step for `key` in `state`: drawn at random with probability epsilon (`explored`
    // is then true), else the best-valued one; among equally valued steps the rules' step
    // when it is one of them, else keep, so an empty table behaves as the rules do.
    Step choose(const std::string &state, const std::string &key, Step rule, SplitMix64 &rng,
                bool &explored) const;
};

// Where the policy is kept: `configured` (SANDBOX_PRESET_RL_PATH), else
// <data_dir>/preset_policy.json.
std::filesystem::path q_policy_path(const std::string &configured,
                                    const std::filesystem::path &data_dir);

// The policy in a file, and what a file of the older format held.
struct LoadedPolicy {
    QPolicy policy;
    // A preset_policy.json written before adapt-presets learned (format
    // sandbox-runner/preset_policy/1) held failure boundaries: that document, to keep.
    nlohmann::json legacy_boundaries;
};

// An empty policy when the file does not exist. Throws InputError naming the file and what
// to do for one that is neither format, or damaged.
LoadedPolicy load_q_policy(const std::filesystem::path &path);
// Written atomically.
void save_q_policy(const std::filesystem::path &path, const QPolicy &policy);

}  // namespace sbx::presets
