#include "session_reports.hpp"

#include "output_file.hpp"
#include "reports/report_formats.hpp"
#include "reports/session_report.hpp"
#include "store/read_only_database.hpp"
#include "util/errors.hpp"

namespace sbx::cli {

std::string checked_report_format(const std::string &format, const std::string &option) {
    for (const char *known : {"junit", "markdown", "html", "json"}) {
        if (format == known) {
            return format;
        }
    }
    throw InputError(option + ": format '" + format +
                     "' is unknown; use junit, markdown, html or json");
}

std::pair<std::string, std::string> parse_report_target(const std::string &spec,
                                                        const std::string &option) {
    const auto colon = spec.find(':');
    if (colon == std::string::npos || colon + 1 == spec.size()) {
        throw InputError(option + " '" + spec +
                         "' needs FORMAT:FILE, e.g. junit:results.xml or markdown:summary.md");
    }
    const std::string file = spec.substr(colon + 1);
    check_output_file(file, option, "report.xml");
    return {checked_report_format(spec.substr(0, colon), option), file};
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
        session = reports::latest_scored_session(*db);
        if (!session) {
            throw InputError("report: " + database.string() +
                             " holds no scenario scores yet; run `sandbox-runner run-scenarios` "
                             "first, or name a SESSION");
        }
    }
    const auto report = reports::load_session_report(*db, *session);
    const std::string dir = data_dir.string();
    if (format == "junit") {
        return reports::junit_report(report, dir);
    }
    if (format == "markdown") {
        return reports::markdown_report(report, dir);
    }
    if (format == "html") {
        return reports::html_report(report, dir, *db);
    }
    // Replace, never throw: the database holds invalid UTF-8 on purpose (hostile inputs).
    return reports::to_json(report).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) +
           "\n";
}

}  // namespace sbx::cli
