// `report [SESSION] [--format F] [--out FILE]`: a recorded session as JUnit XML, Markdown,
// HTML or JSON, on stdout or written atomically to FILE. Reads metrics.db only.
#include <iostream>

#include "cli_context.hpp"
#include "option_parsing.hpp"
#include "output_file.hpp"
#include "session_reports.hpp"
#include "util/atomic_file.hpp"
#include "util/errors.hpp"
#include "util/number_parse.hpp"

namespace sbx::cli {

int run_report_command(CliContext &context, const std::vector<std::string> &args) {
    namespace po = boost::program_options;
    std::string session_text;
    std::string format = "markdown";
    std::string out;
    po::options_description description("report options");
    description.add_options()("session", po::value(&session_text), "session id")(
        "format", po::value(&format), "junit, markdown, html or json")(
        "out", po::value(&out), "write to FILE instead of stdout");
    po::positional_options_description positional;
    positional.add("session", 1);
    parse_options("report", args, description, positional,
                  "use `sandbox-runner report [SESSION] [--format junit|markdown|html|json] "
                  "[--out FILE]`");
    checked_report_format(format, "report --format");
    std::optional<int64_t> session;
    if (!session_text.empty()) {
        const auto value = util::parse_int64(session_text);
        if (!value || *value < 1) {
            throw InputError("report: SESSION '" + session_text +
                             "' is not a session id; give the number `run-scenarios` printed "
                             "(\"recorded as session N\")");
        }
        session = *value;
    }
    if (!out.empty()) {
        check_output_file(out, "report --out", "report.md");
    }
    const std::string text = render_session_report(context.settings.data_dir, session, format);
    if (out.empty()) {
        std::cout << text;
    } else {
        write_file_atomically(out, text);
    }
    return kExitOk;
}

}  // namespace sbx::cli
