// The SVG charts: well-formed documents, data at the pixels the documented layout says,
// every label escaped, non-finite values left out, nice ticks.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <clocale>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <regex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "reports/svg_chart.hpp"

namespace {

using sbx::reports::Bar;
using sbx::reports::BarChart;
using sbx::reports::ChartPoint;
using sbx::reports::ChartSeries;
using sbx::reports::LineChart;
using sbx::reports::render_bar_chart;
using sbx::reports::render_line_chart;
namespace layout = sbx::reports::chart_layout;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

const std::string kScript = "<script>alert(1)</script>";
const std::string kAttributeBreak = "\"><img src=x onerror=alert(1)>";

// The start tags (up to their '>') of the elements with this tag and class.
std::vector<std::string> tags(const std::string &svg, const std::string &name,
                              const std::string &css_class) {
    std::vector<std::string> found;
    const std::string start = "<" + name + " class=\"" + css_class + "\"";
    for (size_t at = svg.find(start); at != std::string::npos; at = svg.find(start, at + 1)) {
        found.push_back(svg.substr(at, svg.find('>', at) - at + 1));
    }
    return found;
}

std::string attribute(const std::string &tag, const std::string &name) {
    const std::string start = " " + name + "=\"";
    const size_t at = tag.find(start);
    if (at == std::string::npos) {
        return "";
    }
    const size_t from = at + start.size();
    return tag.substr(from, tag.find('"', from) - from);
}

double number_attribute(const std::string &tag, const std::string &name) {
    return std::stod(attribute(tag, name));
}

// "x,y x,y ..." of a points attribute.
std::vector<ChartPoint> parse_points(const std::string &points) {
    std::vector<ChartPoint> parsed;
    std::istringstream in(points);
    std::string pair;
    while (in >> pair) {
        const size_t comma = pair.find(',');
        parsed.push_back({std::stod(pair.substr(0, comma)), std::stod(pair.substr(comma + 1))});
    }
    return parsed;
}

// The text of every element with this class, in document order.
std::vector<std::string> texts(const std::string &svg, const std::string &css_class) {
    std::vector<std::string> found;
    const std::regex element("<text class=\"" + css_class + "\"[^>]*>([^<]*)</text>");
    for (std::sregex_iterator it(svg.begin(), svg.end(), element), end; it != end; ++it) {
        found.push_back((*it)[1]);
    }
    return found;
}

// xmllint's verdict on the document; "" when it is well-formed.
std::string xml_errors(const std::string &svg) {
    const char *xmllint = "/usr/bin/xmllint";
    if (access(xmllint, X_OK) != 0) {
        return "xmllint is missing: install the Debian package libxml2-utils";
    }
    const auto dir = std::filesystem::temp_directory_path();
    const auto file = dir / ("test_svg_chart_" + std::to_string(getpid()) + ".svg");
    const auto log = dir / ("test_svg_chart_" + std::to_string(getpid()) + ".log");
    std::ofstream(file) << svg;
    const std::string command =
        std::string(xmllint) + " --noout '" + file.string() + "' 2>'" + log.string() + "'";
    const int status = std::system(command.c_str());
    std::ifstream in(log);
    std::string errors((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::filesystem::remove(file);
    std::filesystem::remove(log);
    return status == 0 ? "" : "xmllint: " + errors;
}

// 1, 2 or 5 times a power of ten.
bool is_nice(double step) {
    const double magnitude = std::pow(10.0, std::floor(std::log10(step)));
    const double factor = step / magnitude;
    for (const double nice : {1.0, 2.0, 5.0, 10.0}) {
        if (std::fabs(factor - nice) < 1e-6) {
            return true;
        }
    }
    return false;
}

std::vector<double> tick_values(const std::string &svg, const std::string &css_class) {
    std::vector<double> values;
    for (const auto &text : texts(svg, css_class)) {
        values.push_back(std::stod(text));
    }
    return values;
}

// The plot area of a default-sized line chart, from the documented layout.
struct Area {
    double left = layout::kMarginLeft;
    double right = 640 - layout::kMarginRight - layout::kLegendWidth;
    double top = layout::kMarginTop;
    double bottom = 320 - layout::kMarginBottom;
};

LineChart chart_with(std::vector<ChartSeries> series) {
    LineChart chart;
    chart.title = "ROI per stage";
    chart.x_label = "stage";
    chart.y_label = "ROI";
    chart.series = std::move(series);
    return chart;
}

TEST(SvgChart, LineChartIsAWellFormedAccessibleDocument) {
    ChartSeries forecast{
        "forecast", {{3, 0.6}, {4, 0.7}}, {{3, 0.5}, {4, 0.55}}, {{3, 0.7}, {4, 0.9}}, true};
    const auto svg = render_line_chart(chart_with(
        {{"measured", {{0, 0.1}, {1, 0.4}, {2, 0.5}, {3, 0.6}}, {}, {}, false}, forecast}));
    EXPECT_EQ(xml_errors(svg), "");
    EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"640\" height=\"320\" "
                        "viewBox=\"0 0 640 320\" role=\"img\"",
                        0),
              0u)
        << svg.substr(0, 200);
    // The accessible name is the first child.
    EXPECT_NE(svg.find(">\n<title>ROI per stage</title>"), std::string::npos);
    EXPECT_EQ(texts(svg, "title"), std::vector<std::string>{"ROI per stage"});
    EXPECT_EQ(texts(svg, "x-label"), std::vector<std::string>{"stage"});
    EXPECT_EQ(texts(svg, "y-label"), std::vector<std::string>{"ROI"});
    const auto groups = tags(svg, "g", "series");
    ASSERT_EQ(groups.size(), 2u);
    EXPECT_EQ(attribute(groups[0], "data-series"), "measured");
    EXPECT_EQ(attribute(groups[1], "data-series"), "forecast");
    const auto legend = tags(svg, "g", "legend-entry");
    ASSERT_EQ(legend.size(), 2u);
    EXPECT_EQ(attribute(legend[1], "data-series"), "forecast");
    // Deterministic: the same chart, the same bytes.
    EXPECT_EQ(
        svg,
        render_line_chart(chart_with(
            {{"measured", {{0, 0.1}, {1, 0.4}, {2, 0.5}, {3, 0.6}}, {}, {}, false}, forecast})));
}

TEST(SvgChart, PlantedSeriesLandsOnTheDocumentedPixels) {
    // x spans 0..4 (ticks 0 1 2 3 4) and y 0..1 (ticks 0 0.2 ... 1): the axes are the data's
    // range exactly, so each point maps linearly onto the plot area.
    const std::vector<ChartPoint> planted{{0, 0}, {1, 0.5}, {2, 1}, {4, 0.25}};
    const auto svg = render_line_chart(chart_with({{"planted", planted, {}, {}, false}}));
    const auto lines = tags(svg, "polyline", "line");
    ASSERT_EQ(lines.size(), 1u);
    const auto points = parse_points(attribute(lines[0], "points"));
    ASSERT_EQ(points.size(), planted.size());
    const Area area;
    for (size_t i = 0; i < planted.size(); ++i) {
        EXPECT_NEAR(points[i].x, area.left + planted[i].x / 4 * (area.right - area.left), 0.006)
            << "point " << i;
        EXPECT_NEAR(points[i].y, area.bottom - planted[i].y * (area.bottom - area.top), 0.006)
            << "point " << i;
    }
    // The corners, worked out by hand: (0, 0) at (64, 272), (2, 1) at (272, 40).
    EXPECT_EQ(attribute(lines[0], "points").substr(0, 11), "64.00,272.0");
    EXPECT_NE(attribute(lines[0], "points").find(" 272.00,40.00 "), std::string::npos);
    const auto markers = tags(svg, "circle", "marker");
    ASSERT_EQ(markers.size(), planted.size());
    EXPECT_NEAR(number_attribute(markers[3], "cx"), 480, 0.006);
    EXPECT_NEAR(number_attribute(markers[3], "cy"), 272 - 0.25 * 232, 0.006);
}

TEST(SvgChart, BandIsOnePolygonAlongTheUpperBoundAndBackAlongTheLower) {
    ChartSeries series{"forecast", {{0, 0.5}, {1, 0.5}, {2, 0.5}}, {}, {}, true};
    series.lower = {{0, 0.4}, {1, 0.3}, {2, 0.2}};
    series.upper = {{0, 0.6}, {1, 0.7}, {2, 0.8}};
    LineChart chart = chart_with({series});
    chart.y_min = 0;
    chart.y_max = 1;
    const auto svg = render_line_chart(chart);
    const auto bands = tags(svg, "polygon", "band");
    ASSERT_EQ(bands.size(), 1u);
    const auto polygon = parse_points(attribute(bands[0], "points"));
    ASSERT_EQ(polygon.size(), 6u);
    const Area area;
    const auto y_pixel = [&](double y) { return area.bottom - y * (area.bottom - area.top); };
    const double expected_y[] = {0.6, 0.7, 0.8, 0.2, 0.3, 0.4};
    const double expected_x[] = {0, 1, 2, 2, 1, 0};
    for (size_t i = 0; i < 6; ++i) {
        EXPECT_NEAR(polygon[i].y, y_pixel(expected_y[i]), 0.006) << "vertex " << i;
        EXPECT_NEAR(polygon[i].x, area.left + expected_x[i] / 2 * (area.right - area.left), 0.006)
            << "vertex " << i;
    }
    // Under the line: the band comes first in the series' group, and is translucent.
    EXPECT_LT(svg.find("class=\"band\""), svg.find("class=\"line\""));
    EXPECT_EQ(attribute(bands[0], "fill-opacity"), "0.2");
    EXPECT_EQ(attribute(tags(svg, "polyline", "line")[0], "stroke-dasharray"), "6 4");
}

TEST(SvgChart, SeriesHaveDistinctColoursAndOnlyForecastsAreDashed) {
    std::vector<ChartSeries> series;
    for (int i = 0; i < 4; ++i) {
        series.push_back({"s" + std::to_string(i), {{0, 1.0 * i}, {1, 2.0 * i}}, {}, {}, i == 2});
    }
    const auto svg = render_line_chart(chart_with(series));
    const auto lines = tags(svg, "polyline", "line");
    ASSERT_EQ(lines.size(), 4u);
    std::vector<std::string> colours;
    for (size_t i = 0; i < lines.size(); ++i) {
        colours.push_back(attribute(lines[i], "stroke"));
        EXPECT_EQ(attribute(lines[i], "stroke-dasharray").empty(), i != 2) << lines[i];
    }
    std::sort(colours.begin(), colours.end());
    EXPECT_EQ(std::unique(colours.begin(), colours.end()), colours.end());
}

TEST(SvgChart, HostileLabelsAppearOnlyEscaped) {
    LineChart chart = chart_with({{kScript, {{0, 1}, {1, 2}}, {}, {}, false},
                                  {kAttributeBreak, {{0, 2}, {1, 1}}, {}, {}, false}});
    chart.title = kScript;
    chart.x_label = kAttributeBreak;
    chart.y_label = "a & b";
    BarChart bars{kAttributeBreak, kScript, {{kScript, 1, kAttributeBreak}, {"x", -1, kScript}}};
    for (const auto &svg : {render_line_chart(chart), render_bar_chart(bars)}) {
        EXPECT_EQ(xml_errors(svg), "");
        EXPECT_EQ(svg.find("<script"), std::string::npos) << svg;
        EXPECT_EQ(svg.find("<img"), std::string::npos) << svg;
        // Every tag in the document is one the renderer writes.
        const std::regex any_tag("<(/?)([A-Za-z]+)");
        for (std::sregex_iterator it(svg.begin(), svg.end(), any_tag), end; it != end; ++it) {
            EXPECT_TRUE(
                std::regex_match((*it)[2].str(), std::regex("svg|title|rect|text|line|g|polyline|"
                                                            "polygon|circle")))
                << (*it)[0];
        }
        EXPECT_NE(svg.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
        EXPECT_NE(svg.find("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"), std::string::npos);
    }
    const auto line_svg = render_line_chart(chart);
    EXPECT_NE(line_svg.find("<title>&lt;script&gt;"), std::string::npos);
    EXPECT_NE(line_svg.find(">a &amp; b</text>"), std::string::npos);
    EXPECT_EQ(attribute(tags(line_svg, "g", "series")[1], "data-series"),
              "&quot;&gt;&lt;img src=x onerror=alert(1)&gt;");
}

TEST(SvgChart, NonFiniteValuesAreLeftOut) {
    ChartSeries series{"gappy", {{0, 1}, {1, kNaN}, {kInf, 2}, {3, -kInf}, {4, 3}}, {}, {}, false};
    series.lower = {{0, 0.5}, {1, kNaN}, {4, 2.5}};
    series.upper = {{0, 1.5}, {1, 2}, {4, 3.5}};
    const auto svg = render_line_chart(chart_with({series}));
    EXPECT_EQ(xml_errors(svg), "");
    EXPECT_EQ(parse_points(attribute(tags(svg, "polyline", "line")[0], "points")).size(), 2u);
    EXPECT_EQ(tags(svg, "circle", "marker").size(), 2u);
    // The pair with a NaN bound is left out of the band whole: 2 pairs, 4 vertices.
    EXPECT_EQ(parse_points(attribute(tags(svg, "polygon", "band")[0], "points")).size(), 4u);
    // The axes come from the finite values only: x 0..4.
    EXPECT_EQ(tick_values(svg, "x-tick").back(), 4);
    for (const char *word : {"nan", "NaN", "inf"}) {
        EXPECT_EQ(svg.find(word), std::string::npos) << word;
    }
}

TEST(SvgChart, NoFiniteDataSaysNoData) {
    const std::vector<std::string> empty_charts{
        render_line_chart(chart_with({})),
        render_line_chart(chart_with({{"nothing", {{kNaN, 1}, {2, kInf}}, {}, {}, false}})),
        render_bar_chart({"synergy", "value", {}}),
        render_bar_chart({"synergy", "value", {{"a", kNaN, ""}}})};
    for (const auto &svg : empty_charts) {
        EXPECT_EQ(xml_errors(svg), "");
        EXPECT_EQ(texts(svg, "no-data"), std::vector<std::string>{"no data"});
        EXPECT_EQ(svg.find("class=\"axis\""), std::string::npos);
        EXPECT_EQ(svg.find("class=\"series\""), std::string::npos);
        EXPECT_EQ(svg.find("role=\"img\""), svg.find(" role=") + 1);
        // Small: not the chart's 640 x 320.
        EXPECT_LT(std::stod(attribute(svg.substr(0, svg.find('>')), "width")), 640);
    }
}

TEST(SvgChart, BarsGoAboveAndBelowTheZeroLineWithTheirValues) {
    const BarChart chart{"synergy", "value", {{"roi", 0.5, ""}, {"wall_s", -0.25, ""}}};
    const auto svg = render_bar_chart(chart);
    EXPECT_EQ(xml_errors(svg), "");
    const auto zero_lines = tags(svg, "line", "zero-line");
    ASSERT_EQ(zero_lines.size(), 1u);
    const double zero = number_attribute(zero_lines[0], "y1");
    const auto bars = tags(svg, "rect", "bar");
    ASSERT_EQ(bars.size(), 2u);
    // Positive: ends at the zero line, grows upwards (smaller y).
    EXPECT_NEAR(number_attribute(bars[0], "y") + number_attribute(bars[0], "height"), zero, 0.006);
    EXPECT_GT(number_attribute(bars[0], "height"), 0);
    // Negative: starts at the zero line, grows downwards, half as long.
    EXPECT_NEAR(number_attribute(bars[1], "y"), zero, 0.006);
    EXPECT_NEAR(number_attribute(bars[1], "height"), number_attribute(bars[0], "height") / 2, 0.01);
    EXPECT_EQ(attribute(bars[1], "data-label"), "wall_s");
    EXPECT_EQ(texts(svg, "value"), (std::vector<std::string>{"0.500", "-0.250"}));
    EXPECT_EQ(texts(svg, "bar-label"), (std::vector<std::string>{"roi", "wall_s"}));
    // Ticks: -0.3 .. 0.5 in steps of 0.1 or 0.2, zero among them.
    const auto ticks = tick_values(svg, "y-tick");
    EXPECT_NE(std::find(ticks.begin(), ticks.end(), 0.0), ticks.end());
    EXPECT_LE(ticks.front(), -0.25);
    EXPECT_GE(ticks.back(), 0.5);
}

TEST(SvgChart, BarsOfOneLabelFormAGroupColouredBySeries) {
    const BarChart chart{"synergy",
                         "value",
                         {{"synergy_roi", 0.2, "latest"},
                          {"synergy_roi", 0.1, "ema(5)"},
                          {"synergy_wall_s", -0.3, "latest"},
                          {"synergy_wall_s", -0.1, "ema(5)"}}};
    const auto svg = render_bar_chart(chart);
    EXPECT_EQ(xml_errors(svg), "");
    const auto bars = tags(svg, "rect", "bar");
    ASSERT_EQ(bars.size(), 4u);
    EXPECT_EQ(attribute(bars[0], "fill"), attribute(bars[2], "fill"));
    EXPECT_NE(attribute(bars[0], "fill"), attribute(bars[1], "fill"));
    EXPECT_EQ(texts(svg, "bar-label").size(), 2u);
    EXPECT_EQ(tags(svg, "g", "legend-entry").size(), 2u);
    // The two bars of a group touch more closely than the groups do.
    const auto left = [&](size_t i) { return number_attribute(bars[i], "x"); };
    EXPECT_LT(left(1) - left(0), left(2) - left(1));
}

TEST(SvgChart, TicksAreNiceNumbersCoveringTheData) {
    const std::vector<std::pair<double, double>> ranges{
        {0.013, 0.87}, {0, 1234}, {-3.7, 12.1}, {1000.5, 1000.9}, {0.5, 0.5}, {-7e-5, 2e-5}};
    for (const auto &[low, high] : ranges) {
        const auto svg =
            render_line_chart(chart_with({{"data", {{0, low}, {1, high}}, {}, {}, false}}));
        const auto ticks = tick_values(svg, "y-tick");
        ASSERT_GE(ticks.size(), 3u) << low << ".." << high;
        EXPECT_LE(ticks.size(), 12u) << low << ".." << high;
        EXPECT_LE(ticks.front(), low);
        EXPECT_GE(ticks.back(), high);
        const double step = ticks[1] - ticks[0];
        EXPECT_TRUE(is_nice(step)) << step << " for " << low << ".." << high;
        for (size_t i = 1; i < ticks.size(); ++i) {
            EXPECT_NEAR(ticks[i] - ticks[i - 1], step, step * 1e-6) << low << ".." << high;
            EXPECT_NEAR(std::remainder(ticks[i], step), 0, step * 1e-6) << ticks[i];
        }
    }
}

TEST(SvgChart, IntegerXAndAMinimumYRange) {
    LineChart chart = chart_with({{"flat", {{0, 1}, {1, 1}}, {}, {}, false}});
    chart.x_integers = true;
    chart.y_min = 0;
    chart.y_max = 1;
    const auto svg = render_line_chart(chart);
    EXPECT_EQ(tick_values(svg, "x-tick"), (std::vector<double>{0, 1}));
    EXPECT_EQ(texts(svg, "x-tick"), (std::vector<std::string>{"0", "1"}));
    const auto y_ticks = tick_values(svg, "y-tick");
    EXPECT_EQ(y_ticks.front(), 0);
    EXPECT_EQ(y_ticks.back(), 1);
    // Data beyond the range widen it instead of leaving the plot.
    chart.series[0].points.push_back({2, 1.3});
    EXPECT_GE(tick_values(render_line_chart(chart), "y-tick").back(), 1.3);
}

TEST(SvgChart, ManySeriesKeepTheLegendInsideTheChart) {
    std::vector<ChartSeries> series;
    for (int i = 0; i < 40; ++i) {
        series.push_back({"scenario_" + std::to_string(i), {{0, 0.1 * i}}, {}, {}, false});
    }
    const auto svg = render_line_chart(chart_with(series));
    EXPECT_EQ(xml_errors(svg), "");
    const auto entries = tags(svg, "g", "legend-entry");
    ASSERT_FALSE(entries.empty());
    EXPECT_LT(entries.size(), 40u);
    const auto more = texts(svg, "legend-more");
    ASSERT_EQ(more.size(), 1u);
    EXPECT_EQ(more[0], "+ " + std::to_string(40 - entries.size()) + " more");
    EXPECT_EQ(tags(svg, "g", "series").size(), 40u);
}

TEST(SvgChart, RangesOfRoundingAloneAndHugeValuesStayFinite) {
    // 0.3 and 0.1 + 0.2 differ by rounding only; 1e300 needs 300 digits in fixed notation.
    for (const auto &points :
         std::vector<std::vector<ChartPoint>>{{{0, 0.3}, {1, 0.1 + 0.2}},
                                              {{0, 1e300}, {1, 1e300 * (1 + 2e-16)}},
                                              {{0, -1e300}, {1, 1e300}},
                                              {{0, 1e57}, {1, 2e57}}}) {
        const auto svg = render_line_chart(chart_with({{"s", points, {}, {}, false}}));
        EXPECT_EQ(xml_errors(svg), "");
        EXPECT_LT(svg.size(), 100000U);
    }
    BarChart bars;
    bars.title = "huge";
    bars.bars = {{"a", 1e200, ""}, {"b", -1e200, ""}};
    EXPECT_EQ(xml_errors(render_bar_chart(bars)), "");
}

}  // namespace
