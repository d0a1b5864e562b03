// A recorded session as the documents people and CI systems read: JUnit XML (one test case
// per scenario, a failure with its reasons and replay line), Markdown (a pull-request
// comment or a step summary) and a self-contained HTML page with the plots. Every string
// from the database is escaped for its format.
#pragma once

#include <string>

#include "reports/session_report.hpp"
#include "store/sqlite_handle.hpp"

namespace sbx::reports {

// `data_dir` goes into the replay lines.
std::string junit_report(const SessionReport &report, const std::string &data_dir);
std::string markdown_report(const SessionReport &report, const std::string &data_dir);
// Reads the ROI trends to plot from `db`.
std::string html_report(const SessionReport &report, const std::string &data_dir,
                        store::Connection &db);

}  // namespace sbx::reports
