// Recording a temporal trajectory, and its chart.
#include "reports/trajectory_recording.hpp"

#include <cstdio>
#include <utility>

#include "reports/foresight_history.hpp"
#include "reports/roi_history.hpp"
#include "reports/scenario_recording.hpp"
#include "reports/svg_chart.hpp"
#include "store/matrix_records.hpp"

namespace sbx::reports {

std::vector<scoring::StageMetrics> record_trajectory_run(
    store::Store &store, int64_t session, const std::filesystem::path &data_dir,
    const std::string &workflow, const std::vector<engine::CellSummary> &cells) {
    std::vector<std::pair<std::string, double>> stage_rois;
    stage_rois.reserve(cells.size());
    for (const auto &cell : cells) {
        stage_rois.emplace_back(cell.preset, cell.roi);
    }
    auto stage_metrics = scoring::trajectory_metrics(stage_rois);
    std::vector<store::TrajectoryRow> rows;
    auto history = load_roi_history(data_dir / "roi_history.json");
    for (size_t i = 0; i < stage_metrics.size(); ++i) {
        const auto &stage = stage_metrics[i];
        rows.push_back(
            {stage.stage, stage.roi, stage.degradation, stage.resilience, stage.stability});
        // Trajectory stages extend the per-scenario series with delta = −degradation
        // (no counterfactual is run) and raroi = roi.
        append_series(history, stage.stage, stage.roi, -stage.degradation, stage.roi,
                      cells[i].metrics);
    }
    store::record_trajectory(store, session, workflow, rows);
    append_foresight_cycle(data_dir / "foresight_history.json",
                           foresight_cycle(workflow, session, stage_metrics));
    save_roi_history(data_dir / "roi_history.json", history);
    return stage_metrics;
}

// The stages' order is fixed, normal first; y spans at least 0..1, where ROI and resilience
// live.
std::string trajectory_chart(const std::string &workflow,
                             const std::vector<scoring::StageMetrics> &stages) {
    LineChart chart;
    chart.title = "temporal trajectory of " + workflow;
    chart.x_label = stages.empty()
                        ? "stage"
                        : "stage (0 = " + stages.front().stage + " ... " +
                              std::to_string(stages.size() - 1) + " = " + stages.back().stage + ")";
    chart.y_label = "value";
    chart.x_integers = true;
    chart.y_min = 0;
    chart.y_max = 1;
    chart.series = {{"roi", {}, {}, {}, false},
                    {"degradation", {}, {}, {}, false},
                    {"resilience", {}, {}, {}, false}};
    for (size_t i = 0; i < stages.size(); ++i) {
        const auto x = static_cast<double>(i);
        chart.series[0].points.push_back({x, stages[i].roi});
        chart.series[1].points.push_back({x, stages[i].degradation});
        chart.series[2].points.push_back({x, stages[i].resilience});
    }
    return render_line_chart(chart);
}

nlohmann::json trajectory_stages_json(const std::vector<scoring::StageMetrics> &stages) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto &stage : stages) {
        out.push_back({{"stage", stage.stage},
                       {"roi", stage.roi},
                       {"degradation", stage.degradation},
                       {"resilience", stage.resilience},
                       {"stability", stage.stability}});
    }
    return out;
}

std::string trajectory_text(const std::string &workflow,
                            const std::vector<scoring::StageMetrics> &stages) {
    std::string out = "temporal trajectory of " + workflow + "\n\n";
    char line[160];
    std::snprintf(line, sizeof(line), "%-16s %7s %12s %11s %10s\n", "stage", "roi", "degradation",
                  "resilience", "stability");
    out += line;
    for (const auto &stage : stages) {
        std::snprintf(line, sizeof(line), "%-16s %7.3f %+12.3f %11.3f %10.3f\n",
                      stage.stage.c_str(), stage.roi, stage.degradation, stage.resilience,
                      stage.stability);
        out += line;
    }
    return out;
}

}  // namespace sbx::reports
