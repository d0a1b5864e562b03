// Rendering a recorded session in one of the report formats.
#include "reports/report_rendering.hpp"

#include "reports/report_formats.hpp"
#include "reports/session_report.hpp"
#include "store/read_only_database.hpp"
#include "util/errors.hpp"

namespace sbx::reports {

std::string checked_report_format(const std::string &format, const std::string &option) {
    for (const char *known : {"junit", "markdown", "html", "json"}) {
        if (format == known) {
            return format;
        }
    }
    throw InputError(option + ": format '" + format +
                     "' is unknown; use junit, markdown, html or json");
}

std::string render_session_report(const std::filesystem::path &data_dir,
                                  std::optional<int64_t> session, const std::string &format) {
    const auto database = data_dir / "metrics.db";
    const auto db = store::open_read_only(database);
    if (!db) {
        throw InputError("report: " + database.string() +
                         " does not exist: nothing was recorded there yet; run `sandbox-runner "
                         "run-scenarios` first or give the --data-dir that holds it");
    }
    if (!session) {
        session = latest_scored_session(*db);
        if (!session) {
            throw InputError("report: " + database.string() +
                             " holds no scenario scores yet; run `sandbox-runner run-scenarios` "
                             "first, or name a SESSION");
        }
    }
    const auto report = load_session_report(*db, *session);
    const std::string dir = data_dir.string();
    if (format == "junit") {
        return junit_report(report, dir);
    }
    if (format == "markdown") {
        return markdown_report(report, dir);
    }
    if (format == "html") {
        return html_report(report, dir, *db);
    }
    // Replace, never throw: the database holds invalid UTF-8 on purpose (hostile inputs).
    return to_json(report).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace sbx::reports
