// Rendering a recorded session in one of the report formats: `report`, and
// `run-scenarios --report FORMAT:FILE` as it finishes.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace sbx::cli {

// "junit", "markdown", "html" or "json"; throws InputError naming `option` otherwise.
std::string checked_report_format(const std::string &format, const std::string &option);

// The report of `session` (nullopt: the newest with scenario scores) of the metrics.db in
// `data_dir`, opened read-only. Throws InputError when there is nothing to report.
std::string render_session_report(const std::filesystem::path &data_dir,
                                  std::optional<int64_t> session, const std::string &format);

// --report FORMAT:FILE, parsed: {format, file}. Throws InputError naming the option.
std::pair<std::string, std::string> parse_report_target(const std::string &spec,
                                                        const std::string &option);

}  // namespace sbx::cli
