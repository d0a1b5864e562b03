// The loop's final report as JSON, from its state and last decisions.
#include "autonomous/loop_report.hpp"

#include "reports/foresight_trends.hpp"
#include "reports/module_rankings.hpp"
#include "scoring/statistics.hpp"
#include "scoring/tracker.hpp"

namespace sbx::autonomous {

using nlohmann::json;

json autonomous_report(const AutonomousState &state, const LoopDecisions &decisions,
                       const scoring::TrackerSettings &tracker_settings,
                       const std::filesystem::path &foresight_history) {
    auto settings = tracker_settings;
    settings.tolerance = decisions.roi_tolerance;
    const auto tracker = tracker_from_iterations(state, settings);
    const json rankings = reports::rankings_json(tracker);
    json modules = json::object();
    for (const auto &module : decisions.modules) {
        const auto roi = module_series(state, module, &ModuleIteration::roi);
        const auto entropy = module_series(state, module, &ModuleIteration::entropy);
        int runs = 0;
        int passed = 0;
        for (const auto &record : state.iterations) {
            const auto found = record.modules.find(module);
            if (found != record.modules.end()) {
                runs += found->second.runs;
                passed += found->second.passed;
            }
        }
        modules[module] = {{"iterations", roi.size()},
                           {"roi", roi.empty() ? json() : json(roi.back())},
                           {"mean_roi", scoring::mean(roi)},
                           {"entropy", entropy.empty() ? json() : json(entropy.back())},
                           {"runs", runs},
                           {"passed", passed}};
    }
    const auto synergy = synergy_series(state);
    json foresight = json::array();
    for (const auto &trend :
         reports::foresight_trends(reports::load_foresight_cycles(foresight_history))) {
        foresight.push_back({{"workflow", trend.workflow},
                             {"cycles", trend.cycles},
                             {"resilience_slope", trend.resilience_slope},
                             {"direction", trend.direction},
                             {"latest_stability", trend.latest_stability},
                             {"mean_stability", trend.mean_stability},
                             {"stable", trend.stable}});
    }
    return {{"command", state.command},
            {"seed", state.seed},
            {"iterations", state.iterations.size()},
            {"stopped", state.stopped},
            {"pending", decisions.pending},
            {"rankings", rankings},
            {"modules", modules},
            {"synergy_roi", synergy.empty() ? json() : json(synergy.back())},
            {"foresight", foresight}};
}

}  // namespace sbx::autonomous
