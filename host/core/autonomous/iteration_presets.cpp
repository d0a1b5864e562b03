#include "autonomous/iteration_presets.hpp"

#include "presets/preset_adaptation.hpp"
#include "presets/selection.hpp"
#include "scoring/tracker_settings.hpp"

namespace sbx::autonomous {

using nlohmann::json;

IterationPresets iteration_presets(const AutonomousState &state, const AutonomousOptions &options,
                                   const config::Settings &settings, int64_t seed,
                                   presets::QPolicy &policy) {
    const json *previous =
        state.iterations.empty() ? nullptr : &state.iterations.back().preset_bodies;
    if (previous == nullptr || previous->empty()) {
        presets::SelectionInputs inputs{options.preset_files, options.preset_count,
                                        static_cast<uint64_t>(seed), &settings,
                                        settings.preset_env};
        inputs.count_over_fixed = options.preset_count_given && options.preset_files.empty();
        return {presets::choose_presets(inputs), json::array()};
    }
    std::vector<presets::Preset> before;
    for (size_t i = 0; i < previous->size(); ++i) {
        before.push_back(presets::make_preset(
            (*previous)[i], "iteration " + std::to_string(state.iterations.back().iteration), i));
    }
    presets::make_names_unique(before);
    if (options.preset_strategy == "fixed") {
        return {before, json::array()};
    }
    const presets::AdaptationInputs inputs{
        options.preset_strategy, "loop " + std::to_string(state.iterations.front().session),
        scoring::tracker_settings_from_environment().tolerance, static_cast<uint64_t>(seed)};
    auto adaptation = presets::adapt_presets(
        before, [&](const std::string &preset) { return preset_series(state, preset); }, policy,
        inputs);
    IterationPresets chosen{std::move(adaptation.presets), json::array()};
    for (const auto &decision : adaptation.decisions) {
        chosen.adaptation.push_back(presets::to_json(decision));
    }
    return chosen;
}

IterationPresets kept_presets(const json &kept, const std::string &origin) {
    IterationPresets chosen;
    const auto &bodies = kept.at("bodies");
    for (size_t i = 0; i < bodies.size(); ++i) {
        chosen.presets.push_back(presets::make_preset(bodies[i], origin, i));
    }
    presets::make_names_unique(chosen.presets);
    chosen.adaptation = kept.at("adaptation");
    return chosen;
}

json keep_presets(int iteration, const IterationPresets &chosen) {
    json bodies = json::array();
    for (const auto &preset : chosen.presets) {
        bodies.push_back(preset.body);
    }
    return {{"iteration", iteration}, {"bodies", bodies}, {"adaptation", chosen.adaptation}};
}

std::string adaptation_summary(const json &adaptation) {
    std::string changes;
    int count = 0;
    for (const auto &decision : adaptation) {
        for (const auto &key : decision.at("keys")) {
            if (!key.at("changed").get<bool>()) {
                continue;
            }
            if (++count <= 4) {
                changes +=
                    (changes.empty() ? "" : ", ") + decision.at("scenario").get<std::string>() +
                    " " + key.at("key").get<std::string>() + " " +
                    key.at("from").get<std::string>() + " -> " + key.at("to").get<std::string>();
            }
        }
    }
    if (adaptation.empty()) {
        return "";
    }
    if (count == 0) {
        return "presets adapted: no setting changed";
    }
    return "presets adapted: " + std::to_string(count) + " setting" + (count == 1 ? "" : "s") +
           " changed (" + changes + (count > 4 ? ", ..." : "") + ")";
}

}  // namespace sbx::autonomous
