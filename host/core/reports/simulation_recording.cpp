// Recording a simulation's outcomes.
#include "reports/simulation_recording.hpp"

#include <cstdio>
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

namespace {

// `value` as printf's `format` (one number) writes it.
std::string formatted(const char *format, double value) {
    char text[64];
    std::snprintf(text, sizeof(text), format, value);
    return text;
}

// `name` left-aligned in `width` columns, as printf's %-Ns (never cut).
std::string padded(const std::string &name, std::size_t width) {
    return name.size() >= width ? name : name + std::string(width - name.size(), ' ');
}

// "  name                  roi 0.900", then each metric when `details`.
std::string part_text(const nlohmann::json &part, bool details) {
    std::string out = "  " + padded(part["name"].get<std::string>(), 32) + " roi " +
                      formatted("%.3f", part["roi"].get<double>()) + "\n";
    if (details) {
        for (const auto &[name, value] : part["metrics"].items()) {
            out += "    " + padded(name, 30) + " " + formatted("%g", value.get<double>()) + "\n";
        }
    }
    return out;
}

// The combined workflow's line with its synergy, then each synergy metric when `details`.
std::string combined_text(const nlohmann::json &entry, bool details) {
    std::string out = "  " + padded(entry["combined"]["name"].get<std::string>(), 32) + " roi " +
                      formatted("%.3f", entry["combined"]["roi"].get<double>()) +
                      "   synergy_roi " +
                      formatted("%+.3f", entry["synergy"]["synergy_roi"].get<double>()) + "\n";
    if (details) {
        for (const auto &[name, value] : entry["synergy"].items()) {
            out += "    " + padded(name, 30) + " " + formatted("%+g", value.get<double>()) + "\n";
        }
    }
    return out;
}

}  // namespace

std::string simulation_text(const engine::Simulation &simulation, const nlohmann::json &report,
                            bool details) {
    std::string out = simulation.subject +
                      " simulation: " + std::to_string(simulation.parts.size()) + " parts, " +
                      std::to_string(simulation.presets.size()) + " presets\n";
    for (const auto &entry : report["presets"]) {
        out += "\npreset " + entry["preset"].get<std::string>() + "\n";
        for (const auto &part : entry["parts"]) {
            out += part_text(part, details);
        }
        if (entry.contains("combined")) {
            out += combined_text(entry, details);
        }
    }
    return out;
}

}  // namespace sbx::reports
