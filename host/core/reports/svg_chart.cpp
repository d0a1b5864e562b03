// SVG line and bar charts, written as text. Everything that reaches the document is either
// a number formatted here (fixed decimals through std::to_chars, which ignores the locale,
// so the same data give the same bytes everywhere) or text that went through
// escape_markup: the labels come from databases that hold the hostile stub's payloads.
#include "reports/svg_chart.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <sstream>

#include "reports/markup_escape.hpp"

namespace sbx::reports {
namespace {

using namespace chart_layout;

// Okabe & Ito's palette, which stays distinguishable under the common colour-vision
// deficiencies; yellow last, being the hardest to see on white. Series beyond eight
// repeat the colours (the legend still names them).
constexpr const char *kPalette[] = {"#0072B2", "#E69F00", "#009E73", "#D55E00",
                                    "#CC79A7", "#56B4E9", "#000000", "#F0E442"};
constexpr size_t kPaletteSize = sizeof(kPalette) / sizeof(kPalette[0]);

const char *colour(size_t index) {
    return kPalette[index % kPaletteSize];
}

// `decimals` fixed decimals; never "-0.00", so that a value that rounds to zero reads the
// same whichever side it came from.
std::string fixed(double value, int decimals) {
    // Fixed notation of 1e300 needs 300 digits; beyond what a chart can mean, scientific.
    char text[512];
    auto result =
        std::to_chars(text, text + sizeof(text), value, std::chars_format::fixed, decimals);
    if (result.ec != std::errc()) {
        result = std::to_chars(text, text + sizeof(text), value, std::chars_format::scientific, 3);
    }
    std::string out(text, result.ec == std::errc() ? result.ptr : text);
    if (out.find_first_not_of("-0.") == std::string::npos && out[0] == '-') {
        out.erase(0, 1);
    }
    return out;
}

// Pixel coordinates: two decimals are finer than any screen and keep files small.
std::string px(double value) {
    return fixed(value, 2);
}

bool finite(const ChartPoint &point) {
    return std::isfinite(point.x) && std::isfinite(point.y);
}

// Legend and bar labels are cut to fit their room, at a UTF-8 character boundary (a cut
// inside a character would come out of escape_markup as U+FFFD).
std::string shorten(const std::string &text, size_t max_characters) {
    size_t characters = 0;
    for (size_t i = 0; i < text.size(); ++i) {
        const bool starts_character = (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80;
        if (starts_character && ++characters > max_characters) {
            return text.substr(0, i) + "\xE2\x80\xA6";  // …
        }
    }
    return text;
}

// The smallest and largest value seen; empty until one is added.
struct Range {
    double low = std::numeric_limits<double>::infinity();
    double high = -std::numeric_limits<double>::infinity();
    void add(double value) {
        low = std::min(low, value);
        high = std::max(high, value);
    }
    [[nodiscard]] bool empty() const { return low > high; }
};

// An axis: the range shown and its ticks, all multiples of `step`.
struct Axis {
    double low = 0;
    double high = 1;
    double step = 1;
    std::vector<double> ticks;
    int decimals = 0;  // enough for `step`, so labels show exactly the tick values
};

// 1, 2 or 5 × 10^k: the step of about five ticks over `span`.
double nice_step(double span) {
    const double raw = span / 5;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    const double residual = raw / magnitude;
    const double factor = residual <= 1 ? 1 : residual <= 2 ? 2 : residual <= 5 ? 5 : 10;
    return factor * magnitude;
}

// The range widened to the enclosing multiples of a nice step. A single value gets a
// range around it, so it lands mid-axis instead of on a division by zero.
Axis nice_axis(Range range, bool integers) {
    // Values apart by rounding alone (0.3 and 0.1 + 0.2) are one value: a step of 1e-17
    // would ask for 1e16 ticks.
    const double magnitude = std::max(std::fabs(range.low), std::fabs(range.high));
    if (range.high - range.low <= magnitude * 1e-9) {
        range.high = range.low;
    }
    if (range.low == range.high) {
        const double pad = range.low == 0 ? 0.5 : std::fabs(range.low) * 0.1;
        range.low -= pad;
        range.high += pad;
    }
    Axis axis;
    axis.step = nice_step(range.high - range.low);
    if (integers) {
        axis.step = std::max(axis.step, 1.0);
    }
    if (!std::isfinite(axis.step) || axis.step <= 0) {
        // A span that overflows a double: no ticks worth drawing, but a usable mapping.
        axis.low = range.low;
        axis.high = range.high;
        axis.ticks = {range.low, range.high};
        return axis;
    }
    // Ticks as whole multiples of the step, so 0.1 steps give 0.3 and not 0.30000000000000004
    // for the label (the decimals below round away what is left).
    const double first = std::floor(range.low / axis.step);
    const double last = std::ceil(range.high / axis.step);
    if (!(last - first <= 1000) || first + 1 == first) {
        // Not a span a nice step divides into a few ticks (a double out of integer range).
        axis.low = range.low;
        axis.high = range.high;
        axis.ticks = {range.low, range.high};
        return axis;
    }
    const auto count = static_cast<int>(last - first);
    for (int k = 0; k <= count; ++k) {
        axis.ticks.push_back((first + k) * axis.step);
    }
    axis.low = axis.ticks.front();
    axis.high = axis.ticks.back();
    axis.decimals = std::max(0, static_cast<int>(-std::floor(std::log10(axis.step) + 1e-9)));
    return axis;
}

// Where the data go, in pixels.
struct PlotArea {
    double left, top, right, bottom;
    [[nodiscard]] double x(const Axis &axis, double value) const {
        return left + (value - axis.low) / (axis.high - axis.low) * (right - left);
    }
    [[nodiscard]] double y(const Axis &axis, double value) const {
        return bottom - (value - axis.low) / (axis.high - axis.low) * (bottom - top);
    }
};

// The <svg> element's start, its accessible name and a white background (a dark viewer
// would otherwise show black text on black).
void open_document(std::ostringstream &out, int width, int height, const std::string &title) {
    out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
        << "\" viewBox=\"0 0 " << width << ' ' << height
        << "\" role=\"img\" font-family=\"sans-serif\" font-size=\"12\">\n"
        << "<title>" << escape_markup(title) << "</title>\n"
        << "<rect class=\"background\" width=\"" << width << "\" height=\"" << height
        << "\" fill=\"#ffffff\"/>\n";
}

void draw_title(std::ostringstream &out, int width, const std::string &title) {
    out << "<text class=\"title\" x=\"" << px(width / 2.0)
        << "\" y=\"24\" text-anchor=\"middle\" font-size=\"15\" font-weight=\"bold\">"
        << escape_markup(title) << "</text>\n";
}

// What a chart without a single finite value says: a small document, no empty axes.
std::string no_data_document(const std::string &title) {
    constexpr int kWidth = 240;
    constexpr int kHeight = 56;
    std::ostringstream out;
    open_document(out, kWidth, kHeight, title);
    out << "<text class=\"title\" x=\"120\" y=\"22\" text-anchor=\"middle\" "
           "font-weight=\"bold\">"
        << escape_markup(shorten(title, 32)) << "</text>\n"
        << "<text class=\"no-data\" x=\"120\" y=\"42\" text-anchor=\"middle\" "
           "fill=\"#555555\">no data</text>\n"
        << "</svg>\n";
    return out.str();
}

// Horizontal grid lines and labels at the y ticks, the y axis line and its label (turned
// to read upwards).
void draw_y_axis(std::ostringstream &out, const PlotArea &area, const Axis &axis,
                 const std::string &label) {
    for (const double tick : axis.ticks) {
        const std::string y = px(area.y(axis, tick));
        out << "<line class=\"grid\" x1=\"" << px(area.left) << "\" y1=\"" << y << "\" x2=\""
            << px(area.right) << "\" y2=\"" << y << "\" stroke=\"#dddddd\"/>\n"
            << "<text class=\"y-tick\" x=\"" << px(area.left - 6) << "\" y=\"" << y
            << "\" dy=\"4\" text-anchor=\"end\">" << fixed(tick, axis.decimals) << "</text>\n";
    }
    out << "<line class=\"axis\" x1=\"" << px(area.left) << "\" y1=\"" << px(area.top) << "\" x2=\""
        << px(area.left) << "\" y2=\"" << px(area.bottom) << "\" stroke=\"#333333\"/>\n";
    const double middle = (area.top + area.bottom) / 2;
    out << "<text class=\"y-label\" x=\"16\" y=\"" << px(middle)
        << "\" text-anchor=\"middle\" transform=\"rotate(-90 16 " << px(middle) << ")\">"
        << escape_markup(label) << "</text>\n";
}

void draw_x_axis(std::ostringstream &out, const PlotArea &area, const Axis &axis,
                 const std::string &label, int height) {
    out << "<line class=\"axis\" x1=\"" << px(area.left) << "\" y1=\"" << px(area.bottom)
        << "\" x2=\"" << px(area.right) << "\" y2=\"" << px(area.bottom)
        << "\" stroke=\"#333333\"/>\n";
    for (const double tick : axis.ticks) {
        const std::string x = px(area.x(axis, tick));
        out << "<line class=\"tick\" x1=\"" << x << "\" y1=\"" << px(area.bottom) << "\" x2=\"" << x
            << "\" y2=\"" << px(area.bottom + 4) << "\" stroke=\"#333333\"/>\n"
            << "<text class=\"x-tick\" x=\"" << x << "\" y=\"" << px(area.bottom + 18)
            << "\" text-anchor=\"middle\">" << fixed(tick, axis.decimals) << "</text>\n";
    }
    out << "<text class=\"x-label\" x=\"" << px((area.left + area.right) / 2) << "\" y=\""
        << (height - 8) << "\" text-anchor=\"middle\">" << escape_markup(label) << "</text>\n";
}

std::string dash_attribute(bool dashed) {
    return dashed ? " stroke-dasharray=\"6 4\"" : "";
}

// One series: its band under the line, the line, a marker at each point.
void draw_series(std::ostringstream &out, const PlotArea &area, const Axis &x_axis,
                 const Axis &y_axis, const ChartSeries &series, size_t index) {
    const std::string name = escape_markup(series.name);
    out << "<g class=\"series\" data-series=\"" << name << "\">\n";
    // The band's polygon goes along the upper bound and back along the lower one. A pair
    // with a non-finite bound is left out whole, so the two edges keep matching x.
    std::string upper_edge;
    std::vector<std::string> lower_edge;
    for (size_t i = 0; i < std::min(series.lower.size(), series.upper.size()); ++i) {
        if (finite(series.lower[i]) && finite(series.upper[i])) {
            upper_edge += px(area.x(x_axis, series.upper[i].x)) + "," +
                          px(area.y(y_axis, series.upper[i].y)) + " ";
            lower_edge.push_back(px(area.x(x_axis, series.lower[i].x)) + "," +
                                 px(area.y(y_axis, series.lower[i].y)));
        }
    }
    if (!lower_edge.empty()) {
        std::string points = upper_edge;
        for (auto it = lower_edge.rbegin(); it != lower_edge.rend(); ++it) {
            points += *it + (std::next(it) == lower_edge.rend() ? "" : " ");
        }
        out << "<polygon class=\"band\" points=\"" << points << "\" fill=\"" << colour(index)
            << "\" fill-opacity=\"0.2\" stroke=\"none\"/>\n";
    }
    std::string points;
    std::string markers;
    for (const auto &point : series.points) {
        if (!finite(point)) {
            continue;
        }
        const std::string x = px(area.x(x_axis, point.x));
        const std::string y = px(area.y(y_axis, point.y));
        points += (points.empty() ? "" : " ") + x;
        points += "," + y;
        markers += "<circle class=\"marker\" cx=\"" + x;
        markers += "\" cy=\"" + y + "\" r=\"3\" fill=\"" + colour(index) + "\"/>\n";
    }
    if (!points.empty()) {
        out << "<polyline class=\"line\" points=\"" << points << "\" fill=\"none\" stroke=\""
            << colour(index) << "\" stroke-width=\"2\"" << dash_attribute(series.dashed) << "/>\n"
            << markers;
    }
    out << "</g>\n";
}

// The legend column right of the plot: a stroke sample (dashed like its series) and the
// name, one row each; rows that do not fit are counted in a last row.
void draw_legend(std::ostringstream &out, const PlotArea &area, int width,
                 const std::vector<ChartSeries> &series) {
    constexpr double kRow = 18;
    const double left = width - kMarginRight - kLegendWidth + 12;
    const auto fitting = static_cast<size_t>(std::max(1.0, (area.bottom - area.top) / kRow));
    const size_t shown = series.size() <= fitting ? series.size() : fitting - 1;
    out << "<g class=\"legend\">\n";
    for (size_t i = 0; i < shown; ++i) {
        const double y = area.top + 8 + kRow * static_cast<double>(i);
        out << "<g class=\"legend-entry\" data-series=\"" << escape_markup(series[i].name)
            << "\"><line x1=\"" << px(left) << "\" y1=\"" << px(y) << "\" x2=\"" << px(left + 20)
            << "\" y2=\"" << px(y) << "\" stroke=\"" << colour(i) << "\" stroke-width=\"2\""
            << dash_attribute(series[i].dashed) << "/><text x=\"" << px(left + 26) << "\" y=\""
            << px(y) << "\" dy=\"4\">" << escape_markup(shorten(series[i].name, 18))
            << "</text></g>\n";
    }
    if (shown < series.size()) {
        const double y = area.top + 8 + kRow * static_cast<double>(shown);
        out << "<text class=\"legend-more\" x=\"" << px(left) << "\" y=\"" << px(y)
            << "\" dy=\"4\">+ " << (series.size() - shown) << " more</text>\n";
    }
    out << "</g>\n";
}

}  // namespace

std::string render_line_chart(const LineChart &chart) {
    Range x_range;
    Range y_range;
    const auto add = [&](const ChartPoint &point) {
        if (finite(point)) {
            x_range.add(point.x);
            y_range.add(point.y);
        }
    };
    for (const auto &series : chart.series) {
        std::for_each(series.points.begin(), series.points.end(), add);
        std::for_each(series.lower.begin(), series.lower.end(), add);
        std::for_each(series.upper.begin(), series.upper.end(), add);
    }
    if (x_range.empty()) {
        return no_data_document(chart.title);
    }
    for (const auto &bound : {chart.y_min, chart.y_max}) {
        if (bound && std::isfinite(*bound)) {
            y_range.add(*bound);
        }
    }
    const int width = std::max(chart.width, kMinWidth);
    const int height = std::max(chart.height, kMinHeight);
    const PlotArea area{kMarginLeft, kMarginTop,
                        static_cast<double>(width - kMarginRight - kLegendWidth),
                        static_cast<double>(height - kMarginBottom)};
    const Axis x_axis = nice_axis(x_range, chart.x_integers);
    const Axis y_axis = nice_axis(y_range, false);

    std::ostringstream out;
    open_document(out, width, height, chart.title);
    draw_title(out, width, chart.title);
    draw_y_axis(out, area, y_axis, chart.y_label);
    draw_x_axis(out, area, x_axis, chart.x_label, height);
    for (size_t i = 0; i < chart.series.size(); ++i) {
        draw_series(out, area, x_axis, y_axis, chart.series[i], i);
    }
    draw_legend(out, area, width, chart.series);
    out << "</svg>\n";
    return out.str();
}

namespace {

// Consecutive bars with the same label, drawn side by side under that label.
struct BarGroup {
    std::string label;
    std::vector<const Bar *> bars;
};

std::vector<BarGroup> group_bars(const std::vector<Bar> &bars) {
    std::vector<BarGroup> groups;
    for (const auto &bar : bars) {
        if (!std::isfinite(bar.value)) {
            continue;
        }
        if (groups.empty() || groups.back().label != bar.label) {
            groups.push_back({bar.label, {}});
        }
        groups.back().bars.push_back(&bar);
    }
    return groups;
}

// Series names in order of first appearance: their colour is their index here.
std::vector<std::string> series_names(const std::vector<BarGroup> &groups) {
    std::vector<std::string> names;
    for (const auto &group : groups) {
        for (const Bar *bar : group.bars) {
            if (std::find(names.begin(), names.end(), bar->series) == names.end()) {
                names.push_back(bar->series);
            }
        }
    }
    return names;
}

// Bar values: three decimals, the precision the text commands print.
std::string value_text(double value) {
    return fixed(value, 3);
}

// A row under the group labels, as the bar chart has no x label.
void draw_bar_legend(std::ostringstream &out, const std::vector<std::string> &names, double left,
                     double y) {
    out << "<g class=\"legend\">\n";
    double x = left;
    for (size_t i = 0; i < names.size(); ++i) {
        const std::string shown = shorten(names[i], 24);
        out << "<g class=\"legend-entry\" data-series=\"" << escape_markup(names[i])
            << "\"><rect x=\"" << px(x) << "\" y=\"" << px(y - 9) << "\" width=\"10\" "
            << "height=\"10\" fill=\"" << colour(i) << "\"/><text x=\"" << px(x + 14) << "\" y=\""
            << px(y) << "\">" << escape_markup(shown) << "</text></g>\n";
        // A rough width of the text: the next entry must not overlap it.
        x += 14 + 7.0 * static_cast<double>(shown.size()) + 16;
    }
    out << "</g>\n";
}

}  // namespace

std::string render_bar_chart(const BarChart &chart) {
    const auto groups = group_bars(chart.bars);
    if (groups.empty()) {
        return no_data_document(chart.title);
    }
    Range y_range;
    y_range.add(0);  // bars grow from the zero line, which must be on the chart
    size_t bar_count = 0;
    for (const auto &group : groups) {
        for (const Bar *bar : group.bars) {
            y_range.add(bar->value);
            ++bar_count;
        }
    }
    // Room beyond the longest bars for their value labels, which would otherwise run into
    // the title or the group labels.
    const double headroom = 0.1 * (y_range.high - y_range.low);
    y_range.add(y_range.high > 0 ? y_range.high + headroom : 0);
    y_range.add(y_range.low < 0 ? y_range.low - headroom : 0);
    const auto names = series_names(groups);
    const bool legend = names.size() > 1 || !names.front().empty();
    const int width = std::max(chart.width, kMinWidth);
    const int height = std::max(chart.height, kMinHeight);
    const PlotArea area{kMarginLeft, kMarginTop, static_cast<double>(width - kMarginRight),
                        static_cast<double>(height - kMarginBottom)};
    const Axis y_axis = nice_axis(y_range, false);

    std::ostringstream out;
    open_document(out, width, height, chart.title);
    draw_title(out, width, chart.title);
    draw_y_axis(out, area, y_axis, chart.y_label);
    const double zero = area.y(y_axis, 0);

    // A bar is one unit wide; half a unit separates groups and the plot's edges.
    constexpr double kGap = 0.5;
    const double units =
        static_cast<double>(bar_count) + kGap * static_cast<double>(groups.size() + 1);
    const double unit = (area.right - area.left) / units;
    double x = area.left + kGap * unit;
    for (const auto &group : groups) {
        const double group_left = x;
        for (const Bar *bar : group.bars) {
            const size_t series = static_cast<size_t>(
                std::find(names.begin(), names.end(), bar->series) - names.begin());
            const double top = area.y(y_axis, bar->value);
            const bool negative = bar->value < 0;
            out << "<rect class=\"bar\" data-label=\"" << escape_markup(bar->label)
                << "\" data-series=\"" << escape_markup(bar->series) << "\" x=\""
                << px(x + 0.1 * unit) << "\" y=\"" << px(std::min(top, zero)) << "\" width=\""
                << px(0.8 * unit) << "\" height=\"" << px(std::fabs(zero - top)) << "\" fill=\""
                << colour(legend ? series : (negative ? 3 : 0)) << "\"/>\n";
            // Above a positive bar, below a negative one: never over the bar itself.
            out << "<text class=\"value\" x=\"" << px(x + 0.5 * unit) << "\" y=\""
                << px(negative ? top + 14 : top - 4)
                << "\" text-anchor=\"middle\" font-size=\"10\">" << value_text(bar->value)
                << "</text>\n";
            x += unit;
        }
        // The label may use the group's width and its share of the gaps, at ~7 px a character.
        const auto room = static_cast<size_t>(std::max(3.0, (x - group_left + kGap * unit) / 7));
        out << "<text class=\"bar-label\" data-label=\"" << escape_markup(group.label) << "\" x=\""
            << px((group_left + x) / 2) << "\" y=\"" << px(area.bottom + 16)
            << "\" text-anchor=\"middle\">" << escape_markup(shorten(group.label, room))
            << "</text>\n";
        x += kGap * unit;
    }
    out << "<line class=\"zero-line\" x1=\"" << px(area.left) << "\" y1=\"" << px(zero)
        << "\" x2=\"" << px(area.right) << "\" y2=\"" << px(zero) << "\" stroke=\"#333333\"/>\n";
    if (legend) {
        draw_bar_legend(out, names, area.left, height - 8.0);
    }
    out << "</svg>\n";
    return out.str();
}

}  // namespace sbx::reports
