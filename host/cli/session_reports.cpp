// Rendering a recorded session in one of the report formats (reports/report_rendering),
// and `run-scenarios --report FORMAT:FILE` parsed.
#include "session_reports.hpp"

#include "output_file.hpp"
#include "util/errors.hpp"

namespace sbx::cli {

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

}  // namespace sbx::cli
