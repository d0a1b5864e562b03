// Rendering a recorded session in one of the report formats: `report`, and
// `run-scenarios --report FORMAT:FILE` as it finishes.
#pragma once

#include <string>
#include <utility>

#include "reports/report_rendering.hpp"

namespace sbx::cli {

using reports::checked_report_format;
using reports::render_session_report;

// --report FORMAT:FILE, parsed: {format, file}. Throws InputError naming the option.
std::pair<std::string, std::string> parse_report_target(const std::string &spec,
                                                        const std::string &option);

}  // namespace sbx::cli
