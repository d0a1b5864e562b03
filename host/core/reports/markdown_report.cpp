// Markdown for a pull-request comment or a CI step summary: a verdict line per workflow, the
// scenario table with the worst scenario marked, and the failures (reasons, replay line)
// folded in a <details>. GitHub renders HTML inside Markdown, so text from the database is
// HTML-escaped, and '|' and '`' are escaped so a name cannot break the table or a code span.
#include <algorithm>
#include <cstdio>

#include "reports/markup_escape.hpp"
#include "reports/replay_line.hpp"
#include "reports/report_formats.hpp"

namespace sbx::reports {
namespace {

// Text in Markdown: HTML-escaped, Markdown's specials backslashed, and every line break
// or control character a space (a \r would end a table row and start a forged line).
std::string md(const std::string &text) {
    std::string out;
    for (const char c : escape_markup(text)) {
        if (c == '|' || c == '`' || c == '*' || c == '_' || c == '[' || c == ']' || c == '\\') {
            out += '\\';
        }
        out += static_cast<unsigned char>(c) < 0x20 ? ' ' : c;
    }
    return out;
}

// A code span holding `text` as it is (no escape works inside one): fenced by one more
// backtick than the longest run in it, control characters as spaces.
std::string code_span(const std::string &text) {
    std::string clean;
    size_t run = 0;
    size_t longest = 0;
    for (const char c : text) {
        run = c == '`' ? run + 1 : 0;
        longest = std::max(longest, run);
        clean += static_cast<unsigned char>(c) < 0x20 ? ' ' : c;
    }
    const std::string fence(longest + 1, '`');
    const bool pad = !clean.empty() && (clean.front() == '`' || clean.back() == '`');
    return fence + (pad ? " " : "") + clean + (pad ? " " : "") + fence;
}

std::string number(double value, bool sign) {
    char text[32];
    std::snprintf(text, sizeof(text), sign ? "%+.3f" : "%.3f", value);
    return text;
}

const char *verdict_mark(const std::string &verdict) {
    if (verdict == "pass") {
        return "✅";
    }
    return verdict == "fail" || verdict == "broken" ? "❌" : "⚠️";
}

}  // namespace

std::string markdown_report(const SessionReport &report, const std::string &data_dir) {
    const std::string commands = command_prefix(report.settings_source, data_dir);
    std::string text = "## sandbox-runner: session " + std::to_string(report.session) + "\n\n";
    text += code_span(report.command) + " · " + md(report.status) + " · started " +
            md(report.started_at) + (report.seed ? " · seed " + std::to_string(*report.seed) : "") +
            "\n\n";
    if (const std::string unfinished = unfinished_text(report, commands); !unfinished.empty()) {
        text += "> ❌ **" + md(unfinished) + "**\n\n";
    }
    for (const auto &line : disabled_plugin_lines(report.disabled_plugins)) {
        text += "> ⚠️ " + md(line) + "\n\n";
    }
    if (report.workflows.empty()) {
        text += "No scenario scores were recorded in this session.\n";
    }
    for (const auto &workflow : report.workflows) {
        text += "### " + std::string(verdict_mark(workflow.verdict)) + " " + md(workflow.workflow) +
                ": " + md(workflow.verdict) + "\n\n";
        if (!workflow.broken.empty()) {
            text += "**Broken:** " + md(workflow.broken) +
                    ". Fix the workflow first: no scenario blames a fault or an input.\n\n";
        }
        if (!workflow.worst_scenario.empty()) {
            text += "Worst scenario: **" + md(workflow.worst_scenario) + "**\n\n";
        }
        text +=
            "| scenario | ROI on | ROI off | Δ ROI | Δ RAROI | result |\n"
            "| --- | ---: | ---: | ---: | ---: | --- |\n";
        std::string failures;
        for (const auto &s : workflow.scenarios) {
            const std::string result = !s.not_applicable.empty() ? "n/a"
                                       : !s.inconclusive.empty() ? "⚠️ inconclusive"
                                       : s.failed                ? "❌ fail"
                                                                 : "✅ pass";
            text += "| " + md(s.scenario) + (s.worst ? " **(worst)**" : "") + " | " +
                    number(s.roi_on, false) + " | " + number(s.roi_off, false) + " | " +
                    number(s.roi_delta, true) + " | " + number(s.raroi_delta, true) + " | " +
                    result + " |\n";
            if (!s.inconclusive.empty()) {
                failures +=
                    "- **" + md(s.scenario) + "**: inconclusive: " + md(s.inconclusive) + "\n";
            }
            if (s.failed) {
                failures += "- **" + md(s.scenario) + "**: ";
                std::string reasons;
                for (const auto &reason : s.reasons) {
                    reasons += (reasons.empty() ? "" : "; ") + md(reason);
                }
                failures += reasons.empty() ? "failed" : reasons;
                if (!s.failure_detail.empty()) {
                    failures += " — first: " + code_span(s.failure_detail);
                }
                if (s.replay_run != 0) {
                    failures += " — replay: " + code_span(replay_line(commands, s.replay_run));
                }
                failures += "\n";
            }
        }
        if (!failures.empty()) {
            text += "\n<details><summary>Failures</summary>\n\n" + failures + "\n</details>\n";
        }
        text += "\n";
    }
    return text;
}

}  // namespace sbx::reports
