// rank-scenarios --plot: the ROI history of each ranked scenario as a line chart, from the
// same sources the ranking read. The CLI writes the SVG.
#pragma once

#include <vector>

#include "ranking/ranking.hpp"
#include "ranking/source.hpp"
#include "reports/svg_chart.hpp"

namespace sbx::ranking {

// One line per ranked row and workflow, in ranking order (so the legend reads like the
// ranking), named "scenario (workflow)" when the chart has several workflows; x is the
// entry's index in that series. A row ranked across workflows has a line per workflow.
reports::LineChart scenario_roi_chart(const std::vector<Source> &sources,
                                      const std::vector<ScenarioRank> &rows,
                                      WorkflowGrouping grouping);

}  // namespace sbx::ranking
