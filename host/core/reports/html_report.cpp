// The self-contained HTML report: the session, then per workflow the matrix, a chart of the
// scenarios' ROI deltas, each scenario's ROI trend with the forecast, and the failures. The
// charts are inline SVG; the page loads nothing and runs no script.
#include "reports/html_sections.hpp"
#include "reports/markup_escape.hpp"
#include "reports/replay_line.hpp"
#include "reports/report_formats.hpp"
#include "reports/svg_chart.hpp"
#include "reports/trend_series.hpp"

namespace sbx::reports {

std::string html_report(const SessionReport &report, const std::string &data_dir,
                        store::Connection &db) {
    const std::string title = "sandbox-runner session " + std::to_string(report.session);
    const std::string commands = command_prefix(report.settings_source, data_dir);
    std::string body = "<h1>" + escape_markup(title) + "</h1>\n" + session_summary_html(report);
    if (const std::string unfinished = unfinished_text(report, commands); !unfinished.empty()) {
        body += "<p class=\"unfinished\">" + escape_markup(unfinished) + "</p>\n";
    }
    body += disabled_plugins_html(report);
    if (report.workflows.empty()) {
        body += "<p>No scenario scores were recorded in this session.</p>\n";
    }
    for (const auto &workflow : report.workflows) {
        body += "<h2>" + escape_markup(workflow.workflow) + "</h2>\n" + matrix_table_html(workflow);
        BarChart deltas;
        deltas.title = "ROI delta per scenario (on − off)";
        deltas.y_label = "Δ ROI";
        LineChart trends;
        trends.title = "ROI with the workflow on, by session";
        trends.x_label = "cell";
        trends.y_label = "ROI";
        trends.x_integers = true;
        for (const auto &scenario : workflow.scenarios) {
            deltas.bars.push_back({scenario.scenario, scenario.roi_delta, ""});
            for (auto &series :
                 roi_trend(db, workflow.workflow, scenario.scenario, report.session)) {
                if (!series.dashed) {
                    trends.series.push_back(std::move(series));
                }
            }
        }
        body += "<div class=\"charts\">\n" + render_bar_chart(deltas) + "\n" +
                render_line_chart(trends) + "\n</div>\n";
        const std::string failures = failures_html(workflow, commands);
        if (!failures.empty()) {
            body += "<h3>Failures</h3>\n" + failures;
        }
    }
    return html_page(title, body);
}

}  // namespace sbx::reports
