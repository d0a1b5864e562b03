#include "reports/html_sections.hpp"

#include <cstdio>

#include "reports/markup_escape.hpp"
#include "reports/replay_line.hpp"

namespace sbx::reports {
namespace {

constexpr const char *kStyle = R"css(
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:1.5rem auto;max-width:72rem;
padding:0 1rem;color:#1b1f24;background:#fff}
h1{font-size:1.5rem}h2{font-size:1.2rem;margin-top:2rem}h3{font-size:1.05rem}
table{border-collapse:collapse;margin:.5rem 0}th,td{padding:.25rem .6rem;border-bottom:1px solid #d0d7de;
text-align:left}td.num{text-align:right;font-variant-numeric:tabular-nums}
tr.worst td{font-weight:600}.pass{color:#1a7f37}.fail{color:#cf222e}.weak{color:#9a6700}
.na{color:#57606a}code{background:#f6f8fa;padding:.1rem .3rem;border-radius:4px}
nav a{margin-right:1rem}.meta{color:#57606a}.charts{display:flex;flex-wrap:wrap;gap:1rem}
)css";

std::string e(const std::string &text) {
    return escape_markup(text);
}

std::string verdict_class(const std::string &verdict) {
    if (verdict == "pass") {
        return "pass";
    }
    if (verdict == "fail" || verdict == "broken") {
        return "fail";
    }
    return verdict == "not applicable" ? "na" : "weak";
}

}  // namespace

std::string decimal(double value, bool sign) {
    char text[32];
    std::snprintf(text, sizeof(text), sign ? "%+.3f" : "%.3f", value);
    return text;
}

std::string html_page(const std::string &title, const std::string &body,
                      const std::string &head_extra) {
    return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
           "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>" +
           e(title) + "</title>\n<style>" + kStyle + "</style>\n" + head_extra +
           "</head>\n<body>\n" + body + "</body>\n</html>\n";
}

std::string disabled_plugins_html(const SessionReport &report) {
    std::string html;
    for (const auto &line : disabled_plugin_lines(report.disabled_plugins)) {
        html += "<p class=\"disabled-plugin\">⚠ " + escape_markup(line) + "</p>\n";
    }
    return html;
}

std::string session_summary_html(const SessionReport &report) {
    return "<p class=\"meta\">session " + std::to_string(report.session) + " · <code>" +
           e(report.command) + "</code> · " + e(report.status) + " · started " +
           e(report.started_at) +
           (report.seed ? " · seed " + std::to_string(*report.seed) : std::string()) + "</p>\n";
}

std::string matrix_table_html(const WorkflowOutcome &workflow) {
    std::string html = "<p>verdict: <strong class=\"" + verdict_class(workflow.verdict) + "\">" +
                       e(workflow.verdict) + "</strong>";
    if (!workflow.worst_scenario.empty()) {
        html += " · worst scenario: <strong>" + e(workflow.worst_scenario) + "</strong>";
    }
    if (!workflow.broken.empty()) {
        html += "</p>\n<p class=\"broken\">broken: " + e(workflow.broken);
    }
    html +=
        "</p>\n<table class=\"matrix\">\n<thead><tr><th>scenario</th><th>ROI on</th><th>ROI "
        "off</th><th>Δ ROI</th><th>Δ RAROI</th><th>runs failed</th><th>result</th></tr>"
        "</thead>\n<tbody>\n";
    for (const auto &s : workflow.scenarios) {
        const std::string result = !s.not_applicable.empty() ? "n/a"
                                   : !s.inconclusive.empty() ? "inconclusive"
                                   : s.failed                ? "fail"
                                                             : "pass";
        const std::string &why = !s.not_applicable.empty() ? s.not_applicable : s.inconclusive;
        html += std::string("<tr") + (s.worst ? " class=\"worst\"" : "") + "><td>" + e(s.scenario) +
                (s.worst ? " (worst)" : "") + "</td><td class=\"num\">" + decimal(s.roi_on) +
                "</td><td class=\"num\">" + decimal(s.roi_off) + "</td><td class=\"num\">" +
                decimal(s.roi_delta, true) + "</td><td class=\"num\">" +
                decimal(s.raroi_delta, true) + "</td><td class=\"num\">" +
                std::to_string(s.failed_runs) + "/" + std::to_string(s.runs) + "</td><td class=\"" +
                (result == "n/a" ? "na" : result) + "\"" +
                (why.empty() ? "" : " title=\"" + e(why) + "\"") + ">" + result + "</td></tr>\n";
    }
    return html + "</tbody>\n</table>\n";
}

std::string failures_html(const WorkflowOutcome &workflow, const std::string &commands) {
    std::string items;
    for (const auto &s : workflow.scenarios) {
        if (!s.failed) {
            continue;
        }
        items += "<li><strong>" + e(s.scenario) + "</strong>: ";
        std::string reasons;
        for (const auto &reason : s.reasons) {
            reasons += (reasons.empty() ? "" : "; ") + e(reason);
        }
        items += reasons.empty() ? "failed" : reasons;
        if (s.failed_runs > 0) {
            items += " · " + std::to_string(s.failed_runs) + " of " + std::to_string(s.runs) +
                     " runs failed";
            if (!s.failed_step.empty()) {
                items += ", first at step <code>" + e(s.failed_step) + "</code>";
            }
            if (!s.failed_outcome.empty()) {
                items += " (" + e(s.failed_outcome) + ")";
            }
            if (!s.failure_detail.empty()) {
                items += "<br>why: <code>" + e(s.failure_detail) + "</code>";
            }
        }
        if (s.replay_run != 0) {
            items += "<br>replay: <code>" + e(replay_line(commands, s.replay_run)) + "</code>";
        }
        if (!s.tip.empty()) {
            items += "<br>tip: " + e(s.tip);
        }
        items += "</li>\n";
    }
    return items.empty() ? "" : "<ul class=\"failures\">\n" + items + "</ul>\n";
}

}  // namespace sbx::reports
