#include "dashboard/dashboard_pages.hpp"

#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>

#include "dashboard/exposition.hpp"
#include "dashboard/live_counters.hpp"
#include "engine/failure_detail.hpp"
#include "reports/html_sections.hpp"
#include "reports/markup_escape.hpp"
#include "reports/replay_line.hpp"
#include "reports/session_report.hpp"
#include "reports/svg_chart.hpp"
#include "reports/trend_series.hpp"
#include "store/read_only_database.hpp"
#include "util/errors.hpp"

namespace sbx::dashboard {
namespace {

using reports::escape_markup;

constexpr const char *kNav =
    "<nav><a href=\"/\">sessions</a><a href=\"/trends\">trends</a><a "
    "href=\"/synergy\">synergy</a><a href=\"/failures\">failures</a><a "
    "href=\"/cleanup\">cleanup</a><a href=\"/roi\">/roi</a><a "
    "href=\"/metrics\">/metrics</a></nav>\n";

std::string e(const std::string &text) {
    return escape_markup(text);
}

bool any_running(store::Connection &db) {
    store::Statement query(db.get(), "SELECT 1 FROM sessions WHERE status = 'running' LIMIT 1");
    return query.step();
}

// The live line of this process's matrix, when it runs one.
std::string live_html() {
    const auto live = live_snapshot();
    if (!live.active) {
        return "";
    }
    char text[200];
    std::snprintf(text, sizeof(text), "runs %llu/%llu, %llu failed, %.0f s",
                  static_cast<unsigned long long>(live.done),
                  static_cast<unsigned long long>(live.planned),
                  static_cast<unsigned long long>(live.failed), live.elapsed_s);
    return "<p class=\"meta\" id=\"live\">live: " + std::string(text) +
           (live.current.empty() || live.done >= live.planned ? "" : " · " + e(live.current)) +
           "</p>\n";
}

// A page: the title, the navigation, the live line; refreshing itself every 3 s while a
// session runs (no script: a refresh is all "live" needs).
Page page(store::Connection *db, const std::string &title, const std::string &body) {
    const bool running = (db != nullptr && any_running(*db)) || live_snapshot().active;
    return {200, reports::html_page(
                     title + " · sandbox-runner",
                     kNav + std::string("<h1>") + e(title) + "</h1>\n" + live_html() + body,
                     running ? "<meta http-equiv=\"refresh\" content=\"3\">\n" : "")};
}

Page nothing_recorded(const std::filesystem::path &data_dir, const std::string &title) {
    return page(nullptr, title,
                "<p>Nothing is recorded in " + e((data_dir / "metrics.db").string()) +
                    " yet. Run <code>sandbox-runner run-scenarios</code>; this page refreshes "
                    "itself while a run goes on.</p>\n");
}

// <a href="HREF">TEXT</a>, both already markup.
std::string link(const std::string &href, const std::string &text) {
    std::string html = "<a href=\"";
    html += href;
    html += "\">";
    html += text;
    html += "</a>";
    return html;
}

// <code>TEXT</code>, TEXT already markup.
std::string code(const std::string &text) {
    std::string html = "<code>";
    html += text;
    html += "</code>";
    return html;
}

// <tr> of the cells, each already markup.
std::string row(std::initializer_list<std::string> cells) {
    std::string html = "<tr>";
    for (const auto &one : cells) {
        html += one;
    }
    html += "</tr>\n";
    return html;
}

std::string cell(const std::string &text, bool number = false) {
    return std::string(number ? "<td class=\"num\">" : "<td>") + text + "</td>";
}

}  // namespace

Page not_found_page(const std::string &what) {
    Page result = page(nullptr, "Not found", "<p>" + e(what) + "</p>\n");
    result.status = 404;
    return result;
}

Page sessions_page(const std::filesystem::path &data_dir) {
    const auto db = store::open_read_only(data_dir / "metrics.db");
    if (!db) {
        return nothing_recorded(data_dir, "Sessions");
    }
    // Run counts per session from the runs index, newest 200 sessions.
    store::Statement query(
        db->get(),
        "SELECT s.id, s.command, s.status, s.started_at, COALESCE(s.finished_at, ''), "
        "(SELECT COUNT(*) FROM runs r WHERE r.session_id = s.id), (SELECT COUNT(*) FROM runs r "
        "WHERE r.session_id = s.id AND r.passed = 0), (SELECT COUNT(*) FROM scenario_scores sc "
        "WHERE sc.session_id = s.id) FROM sessions s ORDER BY s.id DESC LIMIT 200");
    std::string rows;
    while (query.step()) {
        const std::string id = std::to_string(query.column_int(0));
        rows += row({cell(link("/session/" + id, id)), cell(code(e(query.column_text(1)))),
                     cell(e(query.column_text(2))), cell(e(query.column_text(3))),
                     cell(e(query.column_text(4))), cell(std::to_string(query.column_int(5)), true),
                     cell(std::to_string(query.column_int(6)), true),
                     cell(query.column_int(7) > 0 ? "yes" : "")});
    }
    return page(db.get(), "Sessions",
                "<table class=\"sessions\">\n<thead><tr><th>session</th><th>command</th><th>"
                "status</th><th>started</th><th>finished</th><th>runs</th><th>failed</th><th>"
                "scenario matrix</th></tr></thead>\n<tbody>\n" +
                    rows + "</tbody>\n</table>\n");
}

Page session_page(const std::filesystem::path &data_dir, int64_t session) {
    const auto db = store::open_read_only(data_dir / "metrics.db");
    if (!db) {
        return nothing_recorded(data_dir, "Session " + std::to_string(session));
    }
    reports::SessionReport report;
    try {
        report = reports::load_session_report(*db, session);
    } catch (const InputError &) {
        return not_found_page("session " + std::to_string(session) + " is not recorded");
    }
    const std::string commands = reports::command_prefix(report.settings_source, data_dir.string());
    std::string body = reports::session_summary_html(report);
    if (const std::string unfinished = reports::unfinished_text(report, commands);
        !unfinished.empty()) {
        body += "<p class=\"unfinished\">" + e(unfinished) + "</p>\n";
    }
    body += reports::disabled_plugins_html(report);
    if (report.workflows.empty()) {
        body += "<p>This session recorded no scenario matrix.</p>\n";
    }
    for (const auto &workflow : report.workflows) {
        body += "<h2>" + e(workflow.workflow) + "</h2>\n" + reports::matrix_table_html(workflow);
        reports::BarChart deltas;
        deltas.title = "ROI delta per scenario (on − off)";
        deltas.y_label = "Δ ROI";
        std::string trends;
        for (const auto &scenario : workflow.scenarios) {
            deltas.bars.push_back({scenario.scenario, scenario.roi_delta, ""});
            reports::LineChart chart;
            chart.title = scenario.scenario + ": ROI and forecast";
            chart.x_label = "cell";
            chart.y_label = "ROI";
            chart.width = 420;
            chart.height = 240;
            chart.x_integers = true;
            chart.series = reports::roi_trend(*db, workflow.workflow, scenario.scenario, session);
            trends += reports::render_line_chart(chart) + "\n";
        }
        body += "<div class=\"charts\">\n" + reports::render_bar_chart(deltas) + "\n</div>\n";
        const std::string failures = reports::failures_html(workflow, commands);
        if (!failures.empty()) {
            body += "<h3>Failures</h3>\n" + failures;
        }
        body += "<h3>Trends</h3>\n<div class=\"charts\">\n" + trends + "</div>\n";
    }
    store::Statement runs(db->get(),
                          "SELECT r.id, r.workflow, p.name, r.flag, r.repetition, r.passed, "
                          "COALESCE(r.failed_step, ''), COALESCE(r.outcome, '') FROM runs r "
                          "JOIN presets p ON p.id = r.preset_id WHERE r.session_id = ? AND "
                          "r.passed = 0 ORDER BY r.id LIMIT 200");
    runs.bind(1, session);
    std::string rows;
    while (runs.step()) {
        const std::string id = std::to_string(runs.column_int(0));
        rows += row({cell(link("/run/" + id, id)), cell(e(runs.column_text(1))),
                     cell(e(runs.column_text(2))), cell(e(runs.column_text(3))),
                     cell(std::to_string(runs.column_int(4)), true), cell(e(runs.column_text(6))),
                     cell(e(runs.column_text(7)))});
    }
    if (!rows.empty()) {
        body +=
            "<h2>Failed runs</h2>\n<table class=\"runs\">\n<thead><tr><th>run</th><th>"
            "workflow</th><th>scenario</th><th>flag</th><th>repetition</th><th>failed "
            "step</th><th>outcome</th></tr></thead>\n<tbody>\n" +
            rows + "</tbody>\n</table>\n";
    }
    return page(db.get(), "Session " + std::to_string(session), body);
}

Page run_page(const std::filesystem::path &data_dir, int64_t run) {
    const auto db = store::open_read_only(data_dir / "metrics.db");
    if (!db) {
        return nothing_recorded(data_dir, "Run " + std::to_string(run));
    }
    store::Statement head(db->get(),
                          "SELECT r.session_id, r.workflow, p.name, r.flag, r.repetition, "
                          "r.passed, COALESCE(r.failed_step, ''), COALESCE(r.outcome, ''), "
                          "r.inputs, r.wall_s, s.settings_source FROM runs r JOIN presets p ON "
                          "p.id = r.preset_id JOIN sessions s ON s.id = r.session_id "
                          "WHERE r.id = ?");
    head.bind(1, run);
    if (!head.step()) {
        return not_found_page("run " + std::to_string(run) + " is not recorded");
    }
    const std::string session = std::to_string(head.column_int(0));
    std::string inputs = head.column_text(8);
    if (inputs.size() > 4000) {
        inputs = inputs.substr(0, 4000) + " …";
    }
    std::string body = "<p class=\"meta\">session <a href=\"/session/" + session + "\">" + session +
                       "</a> · " + e(head.column_text(1)) + " · " + e(head.column_text(2)) + " (" +
                       e(head.column_text(3)) + ") · repetition " +
                       std::to_string(head.column_int(4)) + " · " +
                       (head.column_int(5) != 0 ? "passed" : "failed") + " · " +
                       reports::decimal(head.column_double(9)) + " s</p>\n";
    body += "<p>replay: <code>" +
            e(reports::replay_line(reports::command_prefix(head.column_text(10), data_dir.string()),
                                   run)) +
            "</code></p>\n";
    body += "<h2>Inputs</h2>\n<pre class=\"inputs\">" + e(inputs) + "</pre>\n";
    store::Statement steps(db->get(),
                           "SELECT position, name, status, COALESCE(outcome, ''), exit_code, "
                           "signal, wall_s, passed, CASE WHEN json_valid(result) THEN result "
                           "ELSE '{}' END FROM steps WHERE run_id = ? ORDER BY position");
    steps.bind(1, run);
    std::string rows;
    std::string why;            // the failed step's ending and last stderr lines, one line
    std::string failed_stderr;  // its stderr, as the executor captured it (bounded)
    while (steps.step()) {
        std::string reason;
        if (steps.column_int(7) == 0) {
            const auto result = nlohmann::json::parse(steps.column_text(8), nullptr, false);
            if (result.is_object()) {
                reason = engine::failure_detail(steps.column_text(1), result, "");
                if (why.empty()) {
                    why = reason;
                    failed_stderr = result.value("stderr", "");
                }
            }
        }
        rows +=
            "<tr>" + cell(std::to_string(steps.column_int(0)), true) +
            cell(e(steps.column_text(1))) + cell(e(steps.column_text(2))) +
            cell(e(steps.column_text(3))) +
            cell(steps.column_is_null(4) ? "" : std::to_string(steps.column_int(4)), true) +
            cell(steps.column_is_null(5) ? "" : std::to_string(steps.column_int(5)), true) +
            cell(steps.column_is_null(6) ? "" : reports::decimal(steps.column_double(6)), true) +
            cell(e(reason)) + "</tr>\n";
    }
    body +=
        "<h2>Steps</h2>\n<table class=\"steps\">\n<thead><tr><th>#</th><th>step</th><th>"
        "status</th><th>outcome</th><th>exit</th><th>signal</th><th>wall s</th><th>reason"
        "</th></tr></thead>\n<tbody>\n" +
        rows + "</tbody>\n</table>\n";
    if (!head.column_text(6).empty()) {
        body += "<p>failed step: <code>" + e(head.column_text(6)) + "</code> " +
                e(head.column_text(7)) + "</p>\n";
        if (!why.empty()) {
            body += "<p class=\"why\">why: " + e(why) + "</p>\n";
        }
        if (!failed_stderr.empty()) {
            // The end is what explains a failure: the last 8 KiB at most.
            constexpr std::size_t kShown = 8192;
            const std::string shown =
                failed_stderr.size() > kShown
                    ? "… " + failed_stderr.substr(failed_stderr.size() - kShown)
                    : failed_stderr;
            body += "<h2>stderr of the failed step</h2>\n<pre class=\"stderr\">" + e(shown) +
                    "</pre>\n";
        }
    }
    return page(db.get(), "Run " + std::to_string(run), body);
}

Page trends_page(const std::filesystem::path &data_dir) {
    const auto db = store::open_read_only(data_dir / "metrics.db");
    if (!db) {
        return nothing_recorded(data_dir, "Trends");
    }
    // ROI series first, then the metrics, each most recently forecast first: 36 charts.
    store::Statement subjects(db->get(),
                              "SELECT subject FROM predictions WHERE shown = 1 GROUP BY subject "
                              "ORDER BY subject LIKE 'roi:%' DESC, MAX(id) DESC LIMIT 36");
    std::string charts;
    while (subjects.step()) {
        reports::LineChart chart;
        chart.title = subjects.column_text(0);
        chart.x_label = "points";
        chart.width = 420;
        chart.height = 240;
        chart.x_integers = true;
        chart.series = reports::subject_trend(*db, chart.title);
        charts += reports::render_line_chart(chart) + "\n";
    }
    return page(db.get(), "Trends",
                charts.empty() ? "<p>No forecasts are recorded yet.</p>\n"
                               : "<p class=\"meta\">each series' values, the shown predictor's "
                                 "newest forecast (dashed) and its interval</p>\n<div "
                                 "class=\"charts\">\n" +
                                     charts + "</div>\n");
}

Page synergy_page(const std::filesystem::path &data_dir) {
    const auto db = store::open_read_only(data_dir / "metrics.db");
    if (!db) {
        return nothing_recorded(data_dir, "Synergy");
    }
    store::Statement query(db->get(),
                           "SELECT session_id, subject, scenario, name, value FROM synergy WHERE "
                           "session_id = (SELECT MAX(session_id) FROM synergy) ORDER BY subject, "
                           "scenario, name");
    std::string rows;
    reports::BarChart chart;
    chart.title = "synergy_roi of the newest simulation";
    chart.y_label = "synergy";
    std::string session;
    while (query.step()) {
        session = std::to_string(query.column_int(0));
        rows += "<tr>" + cell(e(query.column_text(1))) + cell(e(query.column_text(2))) +
                cell(e(query.column_text(3))) +
                cell(reports::decimal(query.column_double(4), true), true) + "</tr>\n";
        if (query.column_text(3) == "synergy_roi") {
            chart.bars.push_back({query.column_text(2), query.column_double(4), ""});
        }
    }
    if (rows.empty()) {
        return page(db.get(), "Synergy",
                    "<p>No synergy is recorded yet (run <code>sandbox-runner "
                    "run --all-workflows</code>).</p>\n");
    }
    return page(db.get(), "Synergy",
                "<p class=\"meta\">session <a href=\"/session/" + session + "\">" + session +
                    "</a></p>\n<div class=\"charts\">" + reports::render_bar_chart(chart) +
                    "</div>\n<table class=\"synergy\">\n<thead><tr><th>subject</th><th>scenario"
                    "</th><th>name</th><th>value</th></tr></thead>\n<tbody>\n" +
                    rows + "</tbody>\n</table>\n");
}

Page failures_page(const std::filesystem::path &data_dir) {
    const auto db = store::open_read_only(data_dir / "metrics.db");
    if (!db) {
        return nothing_recorded(data_dir, "Failures");
    }
    store::Statement query(db->get(),
                           "SELECT workflow, COALESCE(failed_step, ''), COALESCE(outcome, ''), "
                           "COUNT(*), MAX(id) FROM runs WHERE passed = 0 GROUP BY 1, 2, 3 ORDER "
                           "BY 4 DESC LIMIT 200");
    std::string rows;
    while (query.step()) {
        const std::string last = std::to_string(query.column_int(4));
        rows += row({cell(e(query.column_text(0))), cell(e(query.column_text(1))),
                     cell(e(query.column_text(2))), cell(std::to_string(query.column_int(3)), true),
                     cell(link("/run/" + last, last))});
    }
    return page(db.get(), "Failures",
                rows.empty() ? "<p>No run has failed.</p>\n"
                             : "<p class=\"meta\">failed runs by workflow, step and outcome "
                               "class</p>\n<table class=\"failures\">\n<thead><tr><th>workflow"
                               "</th><th>failed step</th><th>outcome</th><th>runs</th><th>"
                               "newest</th></tr></thead>\n<tbody>\n" +
                                   rows + "</tbody>\n</table>\n");
}

Page cleanup_page(const std::filesystem::path &data_dir) {
    const auto db = store::open_read_only(data_dir / "metrics.db");
    std::string rows;
    if (db) {
        store::Statement query(db->get(),
                               "SELECT name, value, updated_at FROM cleanup_counters ORDER BY "
                               "name");
        while (query.step()) {
            rows += "<tr>" + cell(e(query.column_text(0))) +
                    cell(reports::decimal(query.column_double(1)), true) +
                    cell(e(query.column_text(2))) + "</tr>\n";
        }
    }
    return page(db.get(), "Cleanup",
                "<p class=\"meta\">what executors and injectors reported removing; "
                "<code>sandbox-runner check-resources</code> lists what is left</p>\n"
                "<table class=\"cleanup\">\n<thead><tr><th>counter</th><th>total</th><th>"
                "updated</th></tr></thead>\n<tbody>\n" +
                    rows + "</tbody>\n</table>\n");
}

}  // namespace sbx::dashboard
