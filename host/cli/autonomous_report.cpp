#include "autonomous_report.hpp"

#include <cstdio>

#include "report.hpp"
#include "reports/foresight_trends.hpp"
#include "scoring/statistics.hpp"
#include "scoring/tracker.hpp"

namespace sbx::cli {

using nlohmann::json;

json autonomous_report(const AutonomousState &state, const LoopDecisions &decisions,
                       const scoring::TrackerSettings &tracker_settings,
                       const std::filesystem::path &foresight_history) {
    auto settings = tracker_settings;
    settings.tolerance = decisions.roi_tolerance;
    const auto tracker = tracker_from_iterations(state, settings);
    const json rankings = rankings_json(tracker);
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

void print_autonomous_report(const json &report) {
    std::printf("\n%s stopped after %d iteration%s: %s\n",
                report["command"].get<std::string>().c_str(), report["iterations"].get<int>(),
                report["iterations"].get<int>() == 1 ? "" : "s",
                report["stopped"].get<std::string>().c_str());
    for (const auto &pending : report["pending"]) {
        std::printf("  not converged: %s\n", pending.get<std::string>().c_str());
    }
    print_rankings("by total RAROI over the iterations", report["rankings"]);
    std::printf("\nfinal metrics\n");
    for (const auto &[name, module] : report["modules"].items()) {
        if (module["roi"].is_null()) {
            std::printf("  %-28s never ran\n", name.c_str());
            continue;
        }
        std::printf("  %-28s roi %.3f   mean roi %.3f   entropy %.3f   passed %d of %d runs\n",
                    name.c_str(), module["roi"].get<double>(), module["mean_roi"].get<double>(),
                    module["entropy"].get<double>(), module["passed"].get<int>(),
                    module["runs"].get<int>());
    }
    if (report["synergy_roi"].is_number()) {
        std::printf("  %-28s %+.3f\n", "synergy_roi", report["synergy_roi"].get<double>());
    }
    std::printf("\nforesight (foresight_history.json)\n");
    if (report["foresight"].empty()) {
        std::printf("  no trajectory recorded yet; simulate-temporal-trajectory records one\n");
    }
    for (const auto &trend : report["foresight"]) {
        std::printf("  %-28s %d cycles, resilience %s (%+.3f per cycle), stability %.3f %s\n",
                    trend["workflow"].get<std::string>().c_str(), trend["cycles"].get<int>(),
                    trend["direction"].get<std::string>().c_str(),
                    trend["resilience_slope"].get<double>(),
                    trend["latest_stability"].get<double>(),
                    trend["stable"].get<bool>() ? "(holds)" : "(below its mean)");
    }
}

}  // namespace sbx::cli
