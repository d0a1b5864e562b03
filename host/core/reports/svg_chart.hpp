// Charts as standalone SVG documents, drawn by the host itself (no plotting library, no
// network): line charts for ROI and metric trends with forecasts and their intervals,
// bar charts for synergy values. The same SVG goes into files (--plot), the HTML report
// and the dashboard's pages. Every label is escaped (markup_escape.hpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace sbx::reports {

struct ChartPoint {
    double x = 0;
    double y = 0;
};

struct ChartSeries {
    std::string name;  // in the legend
    std::vector<ChartPoint> points;
    // A band drawn under the line, e.g. a forecast's prediction interval: lower[i] and
    // upper[i] share an x. Empty: no band.
    std::vector<ChartPoint> lower;
    std::vector<ChartPoint> upper;
    bool dashed = false;  // forecasts are dashed, measurements solid
};

struct LineChart {
    std::string title;
    std::string x_label;
    std::string y_label;
    std::vector<ChartSeries> series;
    int width = 640;
    int height = 320;
    // The y axis spans at least [y_min, y_max] (e.g. 0 and 1 for ROI, so that a flat series
    // does not fill the plot); data outside widen it, they are never clipped.
    std::optional<double> y_min;
    std::optional<double> y_max;
    // x values are indices or counts: ticks only at whole numbers.
    bool x_integers = false;
};

struct Bar {
    std::string label;
    double value = 0;  // negative values go below the zero line
    // Bars of one series share a colour and a legend entry; consecutive bars with the same
    // label are drawn as a group under one label. "" everywhere: no legend.
    std::string series;
};

struct BarChart {
    std::string title;
    std::string y_label;
    std::vector<Bar> bars;
    int width = 640;
    int height = 320;
};

// A complete <svg xmlns=...> element (also a valid .svg file). Non-finite values are
// left out; an empty chart says "no data" instead of drawing axes over nothing.
std::string render_line_chart(const LineChart &chart);
std::string render_bar_chart(const BarChart &chart);

// The layout, in pixels, so that a test can map data to pixels on its own. The plot area
// of a line chart is x in [kMarginLeft, width − kMarginRight − kLegendWidth] and y in
// [kMarginTop, height − kMarginBottom]; a bar chart has no legend column. Both axes span
// the data's range widened to the enclosing nice ticks (1, 2 or 5 × 10^k, about five of
// them), y through any y_min/y_max too; a bar chart's y axis always includes 0.
namespace chart_layout {
constexpr int kMarginLeft = 64;
constexpr int kMarginRight = 16;
constexpr int kMarginTop = 40;
constexpr int kMarginBottom = 48;
constexpr int kLegendWidth = 144;
// Smaller sizes are raised to these, so that the plot area never collapses.
constexpr int kMinWidth = 320;
constexpr int kMinHeight = 200;
}  // namespace chart_layout

}  // namespace sbx::reports
