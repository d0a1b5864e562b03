// The ROI history chart of rank-scenarios --plot: each ranked scenario's ROI entries.
#include "ranking/scenario_chart.hpp"

#include <map>
#include <set>
#include <string>

#include "reports/roi_history.hpp"
#include "store/store.hpp"

namespace sbx::ranking {
namespace {

// Each scenario's ROI per workflow over every source, in argument order (older runs first,
// as for the ranking), oldest entry first: a roi_history.json's `roi` lists (which name no
// workflow: ""), a metrics.db's on-cells that the ranking counts (by id, the order they
// finished in). Different workflows are different programs: never one line.
using RoiSeries = std::map<std::string, std::map<std::string, std::vector<double>>>;
RoiSeries roi_series(const std::vector<Source> &sources) {
    RoiSeries series;
    for (const auto &source : sources) {
        if (source.kind == SourceKind::roi_history) {
            for (const auto &[scenario, history] :
                 reports::load_roi_history(source.path).scenarios) {
                auto &values = series[scenario][""];
                values.insert(values.end(), history.roi.begin(), history.roi.end());
            }
            continue;
        }
        // Opened as the ranking opened it a moment ago (migrated, so the columns exist).
        store::Store store(source.path);
        store.locked([&](store::Connection &connection) {
            store::Statement query(connection.get(),
                                   "SELECT presets.name, cells.roi, cells.workflow FROM cells "
                                   "JOIN presets ON presets.id = cells.preset_id WHERE "
                                   "cells.flag = 'on' AND cells.not_applicable IS NULL AND "
                                   "cells.errored_runs < cells.runs ORDER BY cells.id");
            while (query.step()) {
                series[query.column_text(0)][query.column_text(2)].push_back(
                    query.column_double(1));
            }
        });
    }
    return series;
}

}  // namespace

reports::LineChart scenario_roi_chart(const std::vector<Source> &sources,
                                      const std::vector<ScenarioRank> &rows,
                                      WorkflowGrouping grouping) {
    const auto series = roi_series(sources);
    reports::LineChart chart;
    chart.title = "ROI history per scenario";
    chart.x_label = "entry (oldest first)";
    chart.y_label = "ROI";
    chart.x_integers = true;
    chart.y_min = 0;
    chart.y_max = 1;
    std::set<std::string> workflows;
    for (const auto &[scenario, by_workflow] : series) {
        for (const auto &[workflow, values] : by_workflow) {
            workflows.insert(workflow);
        }
    }
    for (const auto &row : rows) {
        const auto found = series.find(row.scenario);
        if (found == series.end()) {
            chart.series.push_back({row.scenario, {}, {}, {}, false});
            continue;
        }
        for (const auto &[workflow, values] : found->second) {
            if (grouping == WorkflowGrouping::each_workflow && workflow != row.workflow) {
                continue;
            }
            const std::string name =
                workflows.size() == 1
                    ? row.scenario
                    : row.scenario + " (" + (workflow.empty() ? "roi_history" : workflow) + ")";
            reports::ChartSeries line{name, {}, {}, {}, false};
            for (size_t i = 0; i < values.size(); ++i) {
                line.points.push_back({static_cast<double>(i), values[i]});
            }
            chart.series.push_back(std::move(line));
        }
    }
    return chart;
}

}  // namespace sbx::ranking
