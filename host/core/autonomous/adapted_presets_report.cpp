// adapt-presets' report, as JSON and as text: the decisions the learned policy or the rules
// made, in the columns the text always had.
#include "autonomous/adapted_presets_report.hpp"

#include "util/text_format.hpp"

namespace sbx::autonomous {
namespace {

using nlohmann::json;
using util::format_text;

bool learning(const AdaptedPresets &adapted) {
    return adapted.strategy == "q_learning";
}

std::string decision_text(const presets::PresetDecision &decision) {
    if (decision.strategy.empty()) {
        return format_text("  %-28s as written (%s)\n", decision.scenario.c_str(),
                           decision.note.c_str());
    }
    const auto &signals = decision.signals;
    std::string text = format_text(
        "  %-28s %s: ROI %s (%zu values), synergy %s, security %s%s%s\n", decision.scenario.c_str(),
        decision.strategy.c_str(), presets::trend_name(signals.roi), signals.roi_samples,
        presets::trend_name(signals.synergy), presets::level_name(signals.security),
        decision.note.empty() ? "" : "; ", decision.note.c_str());
    if (decision.reward) {
        text += format_text("    learned from its last steps: reward %.3f\n", *decision.reward);
    }
    for (const auto &key : decision.keys) {
        const std::string change =
            key.result.changed ? key.result.from + " -> " + key.result.to : key.result.from;
        text += format_text("    %-20s %-18s %-8s %s%s%s\n", key.key.c_str(), change.c_str(),
                            presets::step_name(key.step), key.why.c_str(),
                            key.result.note.empty() ? "" : "; ", key.result.note.c_str());
    }
    return text;
}

}  // namespace

json adapted_presets_json(const AdaptedPresets &adapted, int64_t seed) {
    json decisions = json::array();
    for (const auto &decision : adapted.decisions) {
        decisions.push_back(presets::to_json(decision));
    }
    return {{"strategy", adapted.strategy},
            {"seed", seed},
            {"history", adapted.history.string()},
            {"policy", learning(adapted) ? json(adapted.policy.string()) : json()},
            {"out", adapted.out.string()},
            {"changed", adapted.changed},
            {"decisions", decisions},
            {"presets", adapted.bodies}};
}

std::string adapted_presets_text(const AdaptedPresets &adapted, int64_t seed) {
    std::string text =
        format_text("adapt-presets: %zu preset%s, %s (seed %lld), history %s\n", adapted.chosen,
                    adapted.chosen == 1 ? "" : "s", adapted.strategy.c_str(),
                    static_cast<long long>(seed), adapted.history.c_str());
    for (const auto &decision : adapted.decisions) {
        text += decision_text(decision);
    }
    text += format_text("%d setting%s changed; adapted presets in %s", adapted.changed,
                        adapted.changed == 1 ? "" : "s", adapted.out.c_str());
    if (learning(adapted)) {
        text += "; policy kept in " + adapted.policy.string();
    }
    return text + "\n";
}

}  // namespace sbx::autonomous
