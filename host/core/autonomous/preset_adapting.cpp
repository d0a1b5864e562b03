// Adapting a command's presets from the ROI history, and keeping what was learned.
#include "autonomous/preset_adapting.hpp"

#include "presets/q_policy.hpp"
#include "presets/selection.hpp"
#include "reports/preset_boundaries.hpp"
#include "reports/roi_history.hpp"
#include "scoring/tracker_settings.hpp"
#include "util/atomic_file.hpp"

namespace sbx::autonomous {

AdaptedPresets adapt_and_write_presets(const config::Settings &settings,
                                       const AdaptRequest &request) {
    const std::filesystem::path data_dir = settings.data_dir;
    AdaptedPresets adapted;
    adapted.strategy = request.strategy.empty() ? settings.preset_strategy : request.strategy;
    const auto chosen = presets::choose_presets({request.preset_files, request.preset_count,
                                                 static_cast<uint64_t>(request.seed), &settings,
                                                 settings.preset_env});
    adapted.chosen = chosen.size();
    adapted.history = request.history.empty() ? data_dir / "roi_history.json" : request.history;
    const auto history = reports::load_roi_history(adapted.history);
    adapted.policy = presets::q_policy_path(settings.preset_policy_path, data_dir);
    auto loaded = presets::load_q_policy(adapted.policy);

    const presets::AdaptationInputs inputs{
        adapted.strategy, std::filesystem::absolute(adapted.history).lexically_normal().string(),
        scoring::tracker_settings_from_environment().tolerance,
        static_cast<uint64_t>(request.seed)};
    auto adaptation = presets::adapt_presets(
        chosen,
        [&](const std::string &scenario) { return reports::adaptation_series(history, scenario); },
        loaded.policy, inputs);
    for (size_t i = 0; i < adaptation.presets.size(); ++i) {
        adapted.bodies.push_back(adaptation.presets[i].body);
        adapted.changed += adaptation.decisions[i].changed();
    }
    adapted.decisions = std::move(adaptation.decisions);
    adapted.out = request.out.empty() ? data_dir / "adapted_presets.json" : request.out;
    write_file_atomically(adapted.out, adapted.bodies.dump(2) + "\n");
    if (adapted.strategy == "q_learning") {
        if (!loaded.legacy_boundaries.is_null()) {
            // The file held find-boundaries' brackets: they move to their own file first.
            const auto boundaries_path = reports::preset_boundaries_path(data_dir);
            reports::save_preset_boundaries(
                boundaries_path, reports::load_preset_boundaries(boundaries_path, adapted.policy));
        }
        presets::save_q_policy(adapted.policy, loaded.policy);
    }
    return adapted;
}

}  // namespace sbx::autonomous
