// Recording a simulation's outcomes.
#include "reports/simulation_recording.hpp"

#include <map>
#include <string>

#include "reports/module_rankings.hpp"
#include "reports/roi_history.hpp"
#include "reports/scenario_recording.hpp"
#include "scoring/tracker.hpp"
#include "store/matrix_records.hpp"

namespace sbx::reports {

using nlohmann::json;

json record_simulation(store::Store &store, int64_t session, const std::filesystem::path &data_dir,
                       const engine::Simulation &simulation,
                       const std::vector<engine::PresetOutcome> &outcomes,
                       const scoring::TrackerSettings &settings, engine::Forecaster &forecaster) {
    auto history = load_roi_history(data_dir / "roi_history.json");
    auto tracker =
        tracker_from_history(history, settings, data_dir / (simulation.subject + ".flags"));
    json report = json::array();
    for (const auto &outcome : outcomes) {
        json parts = json::array();
        for (const auto &part : outcome.parts) {
            // Metric names carry the preset, so one module's per-preset trends stay apart.
            std::map<std::string, double> prefixed;
            for (const auto &[name, value] : part.metrics) {
                prefixed[outcome.preset + "_" + name] = value;
            }
            const auto previous = store.roi_history(part.workflow, outcome.preset, "on");
            const double before = previous.size() >= 2 ? previous[previous.size() - 2] : 0.0;
            tracker.update(before, part.roi, {part.workflow}, prefixed);
            tracker.record_raroi(part.workflow, part.roi);
            // Every on-cell adds to its preset's series, as in metrics.db, so rankings
            // read from either agree.
            append_series(history, outcome.preset, part.roi, part.roi - before, part.roi,
                          part.metrics);
            parts.push_back({{"name", part.workflow},
                             {"roi", part.roi},
                             {"runs", part.runs},
                             {"metrics", part.metrics}});
        }
        json entry{{"preset", outcome.preset}, {"parts", parts}};
        if (outcome.has_combined) {
            std::map<std::string, double> synergy = outcome.synergy.synergy_metrics;
            synergy["synergy_roi"] = outcome.synergy.synergy_roi;
            store::record_synergy(store, session, simulation.subject, outcome.preset, synergy);
            for (auto &[name, points] :
                 store::synergy_series(store, simulation.subject, outcome.preset)) {
                if (synergy.count(name) == 0) {
                    continue;  // not extended by this simulation
                }
                forecaster.forecast({name + ":" + simulation.subject + ":" + outcome.preset, name,
                                     std::move(points), std::nullopt});
            }
            auto metrics = outcome.combined.metrics;
            metrics.insert(synergy.begin(), synergy.end());
            append_series(history, outcome.preset, outcome.combined.roi,
                          outcome.synergy.synergy_roi, outcome.combined.roi, metrics);
            entry["combined"] = {{"name", simulation.combined_name},
                                 {"roi", outcome.combined.roi},
                                 {"metrics", outcome.combined.metrics}};
            entry["synergy"] = synergy;
        }
        report.push_back(entry);
    }
    history.tracker = tracker.to_json();
    save_roi_history(data_dir / "roi_history.json", history);
    tracker.save_flags(data_dir / (simulation.subject + ".flags"));
    // The tracker's view across every recorded cycle, not just this one.
    return {{"presets", report}, {"rankings", rankings_json(tracker)}};
}

}  // namespace sbx::reports
