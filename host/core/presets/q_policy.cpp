#include "presets/q_policy.hpp"

#include <algorithm>
#include <cmath>

#include "util/atomic_file.hpp"
#include "util/errors.hpp"
#include "util/input_file.hpp"
#include "util/json_input.hpp"

namespace sbx::presets {

using nlohmann::json;

namespace {

constexpr const char *kFormat = "sandbox-runner/preset_policy/2";
constexpr const char *kBoundaryFormat = "sandbox-runner/preset_policy/1";

size_t index_of(Step step) {
    switch (step) {
        case Step::milder:
            return 0;
        case Step::keep:
            return 1;
        case Step::harsher:
            return 2;
    }
    return 1;
}

Step step_at(size_t index) {
    return index == 0 ? Step::milder : index == 1 ? Step::keep : Step::harsher;
}

double best_value(const StepValues &row) {
    return *std::max_element(row.value.begin(), row.value.end());
}

json row_json(const StepValues &row) {
    return {{"values", row.value}, {"visits", row.visits}};
}

json pending_json(const PendingSteps &pending) {
    json steps = json::object();
    for (const auto &[key, step] : pending.steps) {
        steps[key] = step_name(step);
    }
    const auto optional = [](const std::optional<double> &value) {
        return value ? json(*value) : json();
    };
    return {{"source", pending.source},
            {"state", pending.state},
            {"steps", steps},
            {"roi", optional(pending.roi)},
            {"synergy", optional(pending.synergy)},
            {"roi_samples", pending.roi_samples}};
}

QPolicy policy_from_json(const json &document) {
    QPolicy policy;
    policy.alpha = document.at("alpha").get<double>();
    policy.gamma = document.at("gamma").get<double>();
    policy.epsilon = document.at("epsilon").get<double>();
    policy.rewards = document.at("rewards").get<int64_t>();
    if (!(policy.alpha > 0 && policy.alpha <= 1) || !(policy.gamma >= 0 && policy.gamma < 1) ||
        !(policy.epsilon >= 0 && policy.epsilon <= 1)) {
        throw json::other_error::create(
            501, "alpha must be in (0, 1], gamma in [0, 1), epsilon in [0, 1]", nullptr);
    }
    for (const auto &[state, keys] : document.at("table").items()) {
        for (const auto &[key, row] : keys.items()) {
            auto &kept = policy.table[state][key];
            kept.value = row.at("values").get<std::array<double, 3>>();
            kept.visits = row.at("visits").get<std::array<int, 3>>();
        }
    }
    for (const auto &[scenario, entry] : document.at("pending").items()) {
        PendingSteps pending;
        pending.source = entry.at("source").get<std::string>();
        pending.state = entry.at("state").get<std::string>();
        for (const auto &[key, name] : entry.at("steps").items()) {
            Step step = Step::keep;
            if (!parse_step(name.get<std::string>(), step)) {
                throw json::other_error::create(501, "a step that is not milder, keep or harsher",
                                                nullptr);
            }
            pending.steps[key] = step;
        }
        if (entry.at("roi").is_number()) {
            pending.roi = entry.at("roi").get<double>();
        }
        if (entry.at("synergy").is_number()) {
            pending.synergy = entry.at("synergy").get<double>();
        }
        pending.roi_samples = entry.at("roi_samples").get<size_t>();
        policy.pending[scenario] = std::move(pending);
    }
    return policy;
}

}  // namespace

std::optional<double> QPolicy::learn(const std::string &scenario, const std::string &source,
                                     const TrendSignals &now) {
    const auto found = pending.find(scenario);
    if (found == pending.end()) {
        return std::nullopt;
    }
    const PendingSteps taken = found->second;
    if (taken.source != source || now.roi_samples <= taken.roi_samples) {
        // Another history, or nothing ran since: the steps stay pending (another source's
        // are replaced when this one steps).
        return std::nullopt;
    }
    pending.erase(found);
    double reward = 0;
    if (taken.roi && now.roi_latest) {
        reward += std::fabs(*now.roi_latest - *taken.roi);
    }
    if (taken.synergy && now.synergy_latest) {
        reward += std::fabs(*now.synergy_latest - *taken.synergy);
    }
    const std::string next_state = state_key(now);
    for (const auto &[key, step] : taken.steps) {
        auto &row = table[taken.state][key];
        const double next_best = best_value(table[next_state][key]);
        auto &value = row.value[index_of(step)];
        value += alpha * (reward + gamma * next_best - value);
        ++row.visits[index_of(step)];
    }
    ++rewards;
    return reward;
}

Step QPolicy::choose(const std::string &state, const std::string &key, Step rule, SplitMix64 &rng,
                     bool &explored) const {
    // 53 random bits as a fraction in [0, 1).
    const double draw = static_cast<double>(rng.next() >> 11) * 0x1.0p-53;
    const uint64_t random_step = rng.below(3);
    explored = draw < epsilon;
    if (explored) {
        return step_at(random_step);
    }
    StepValues row;
    if (const auto by_state = table.find(state); by_state != table.end()) {
        if (const auto by_key = by_state->second.find(key); by_key != by_state->second.end()) {
            row = by_key->second;
        }
    }
    const double best = best_value(row);
    const auto is_best = [&](Step step) { return row.value[index_of(step)] == best; };
    if (is_best(rule)) {
        return rule;
    }
    if (is_best(Step::keep)) {
        return Step::keep;
    }
    return is_best(Step::milder) ? Step::milder : Step::harsher;
}

std::filesystem::path q_policy_path(const std::string &configured,
                                    const std::filesystem::path &data_dir) {
    return configured.empty() ? data_dir / "preset_policy.json" : std::filesystem::path(configured);
}

LoadedPolicy load_q_policy(const std::filesystem::path &path) {
    LoadedPolicy loaded;
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
        return loaded;
    }
    const std::string fix =
        "move it away (or point SANDBOX_PRESET_RL_PATH elsewhere) to start a new policy";
    const json document = parse_json_input(read_input_file(path, "the preset policy", fix),
                                           path.string(), "the preset policy", fix);
    const json format = document.is_object() ? document.value("format", json()) : json();
    if (format == kBoundaryFormat) {
        loaded.legacy_boundaries = document;
        return loaded;
    }
    if (format != kFormat) {
        throw InputError(path.string() + ": not a sandbox-runner preset policy; " + fix);
    }
    try {
        loaded.policy = policy_from_json(document);
    } catch (const json::exception &e) {
        throw InputError(path.string() + ": a damaged preset policy (" + e.what() + "); " + fix);
    }
    return loaded;
}

void save_q_policy(const std::filesystem::path &path, const QPolicy &policy) {
    json table = json::object();
    for (const auto &[state, keys] : policy.table) {
        for (const auto &[key, row] : keys) {
            table[state][key] = row_json(row);
        }
    }
    json pending = json::object();
    for (const auto &[scenario, steps] : policy.pending) {
        pending[scenario] = pending_json(steps);
    }
    if (path.has_parent_path()) {
        std::filesystem::create_directories(path.parent_path());
    }
    write_file_atomically(path, json{{"format", kFormat},
                                     {"strategy", "q_learning"},
                                     {"alpha", policy.alpha},
                                     {"gamma", policy.gamma},
                                     {"epsilon", policy.epsilon},
                                     {"rewards", policy.rewards},
                                     {"table", table},
                                     {"pending", pending}}
                                        .dump(2) +
                                    "\n");
}

}  // namespace sbx::presets
