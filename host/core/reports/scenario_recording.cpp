// Recording a scenario matrix.
#include "reports/scenario_recording.hpp"

#include <algorithm>

#include "engine/outcome_counts.hpp"
#include "reports/polyglot_shrinks.hpp"
#include "reports/replay_line.hpp"
#include "reports/roi_history.hpp"
#include "scoring/forecast_scores.hpp"
#include "scoring/impact_severity.hpp"
#include "scoring/tracker.hpp"
#include "scoring/tracker_settings.hpp"
#include "store/matrix_records.hpp"

namespace sbx::reports {

scoring::ImpactSeverity configured_impact_severity() {
    return scoring::impact_severity_from_environment("config/impact_severity.yaml");
}

void append_series(RoiHistory &history, const std::string &scenario, double roi, double delta,
                   double raroi, const std::map<std::string, double> &metrics) {
    auto &series = history.scenarios[scenario];
    series.roi.push_back(roi);
    series.roi_delta.push_back(delta);
    series.raroi.push_back(raroi);
    for (const auto &[name, value] : metrics) {
        series.metrics[name].push_back(value);
    }
}

scoring::Tracker tracker_from_history(const RoiHistory &history,
                                      const scoring::TrackerSettings &settings,
                                      const std::filesystem::path &flags_file) {
    scoring::Tracker tracker(settings);
    if (!history.tracker.empty()) {
        auto state = history.tracker;
        state["converged"] = nlohmann::json::array();
        tracker = scoring::Tracker::from_json(state, settings);
    }
    tracker.load_flags(flags_file);
    return tracker;
}

void record_scenario_run(store::Store &store, const std::filesystem::path &data_dir,
                         const ScenarioRun &run, const scoring::TrackerSettings &settings) {
    std::vector<store::ScenarioScoreRow> rows;
    for (size_t i = 0; i < run.report.scenarios.size(); ++i) {
        const auto &score = run.report.scenarios[i];
        const auto &on = run.cells[i].on;
        rows.push_back({score.name,
                        score.roi_on,
                        score.roi_off,
                        score.roi_delta,
                        score.raroi_on,
                        score.raroi_off,
                        score.raroi_delta,
                        score.failed,
                        score.name == run.report.worst_scenario,
                        {{"target_delta", score.target_delta},
                         {"metrics_delta", score.metrics_delta},
                         {"reasons", score.failing_reasons},
                         {"broken", score.name == "normal" ? run.report.broken : ""},
                         {"outcomes", engine::outcome_counts_json(
                                          engine::outcome_counts(on.metrics, on.scored_runs()))}},
                        score.not_applicable,
                        score.inconclusive});
    }
    store::record_scenario_scores(store, run.session, run.workflow, rows);
    write_scenario_exports(data_dir, run);

    // The tracker sees each scenario as one cycle of the workflow: before = the
    // counterfactual (or baseline), after = the workflow.
    const auto history_path = data_dir / "roi_history.json";
    auto history = load_roi_history(history_path);
    auto tracker = tracker_from_history(history, settings, data_dir / "roi_tracker.flags");
    for (size_t i = 0; i < run.report.scenarios.size(); ++i) {
        const auto &score = run.report.scenarios[i];
        if (!score.not_applicable.empty() || !score.inconclusive.empty()) {
            continue;  // its ROI says nothing about the workflow
        }
        const auto &metrics = run.cells[i].on.metrics;
        tracker.update(score.roi_off, score.roi_on, {run.workflow}, metrics);
        tracker.record_raroi(run.workflow, score.raroi_on);
        append_series(history, score.name, score.roi_on, score.roi_delta, score.raroi_on, metrics);
    }
    history.tracker = tracker.to_json();
    save_roi_history(history_path, history);
    tracker.save_flags(data_dir / "roi_tracker.flags");
}

ScenarioScorers scenario_scorers(const config::Workflow &workflow) {
    const scoring::RaroiContext raroi{configured_impact_severity(), workflow.impact};
    (void)scoring::impact_of(raroi.severity, workflow.impact);
    return {raroi, scoring::tracker_settings_from_environment()};
}

ScenarioRun score_and_record_scenarios(const config::Settings &settings,
                                       plugins::Registry &registry, store::Store &store,
                                       const config::Workflow &workflow,
                                       const std::vector<presets::Preset> &scenarios,
                                       const std::vector<engine::CellSummary> &summaries,
                                       const ScenarioMatrixRun &matrix,
                                       const ScenarioScorers &scorers) {
    ScenarioRun run;
    run.session = matrix.session;
    run.seed = matrix.seed;
    run.repetitions = matrix.repetitions;
    run.robustness_repetitions = std::max(matrix.repetitions, settings.robustness_repetitions);
    run.workflow = workflow.name;
    run.baseline = workflow.baseline;
    run.commands = command_prefix(settings.source, settings.data_dir);
    run.cells = engine::pair_scenarios(scenarios, summaries);
    run.report = scoring::score_scenarios(scoring_inputs(run.cells), scorers.raroi);
    if (matrix.shrink_runs > 0) {
        shrink_polyglot_failures(settings, registry, store, workflow, run, matrix.shrink_runs);
    }
    record_scenario_run(store, settings.data_dir, run,
                        scoring::with_adapted_tolerance(scorers.tracker, store));
    return run;
}

}  // namespace sbx::reports
