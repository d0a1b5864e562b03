// The HTML pieces the report page and the dashboard share: the page around a body (inline
// CSS, no script, nothing loaded from the network), a workflow's scenario matrix and its
// failures. Every string from the database goes through escape_markup.
#pragma once

#include <string>

#include "reports/session_report.hpp"

namespace sbx::reports {

// A complete document. `head_extra` is trusted markup the caller wrote (a refresh tag, a
// script reference); `body` is markup built with the functions here.
std::string html_page(const std::string &title, const std::string &body,
                      const std::string &head_extra = "");

// The session's line: command, status, start, seed.
std::string session_summary_html(const SessionReport &report);

// A warning paragraph per disabled plugin (its reason and replay line), or "".
std::string disabled_plugins_html(const SessionReport &report);

// <table> of the workflow's scenarios: ROI on/off, deltas, the worst marked, results.
std::string matrix_table_html(const WorkflowOutcome &workflow);

// <ul> of the failing scenarios: reasons, failed runs, replay line, tip; "" when none.
// `commands` starts the replay lines (reports::command_prefix).
std::string failures_html(const WorkflowOutcome &workflow, const std::string &commands);

// "0.250", "+0.250" (three decimals, the CLI's precision).
std::string decimal(double value, bool sign = false);

}  // namespace sbx::reports
