// A recorded session rendered in the format asked for (`report`, and `run-scenarios
// --report FORMAT:FILE` as it finishes): the format checked, metrics.db opened read-only.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace sbx::reports {

// "junit", "markdown", "html" or "json"; throws InputError naming `option` otherwise.
std::string checked_report_format(const std::string &format, const std::string &option);

// The report of `session` (nullopt: the newest with scenario scores) of the metrics.db in
// `data_dir`, opened read-only. Throws InputError when there is nothing to report.
std::string render_session_report(const std::filesystem::path &data_dir,
                                  std::optional<int64_t> session, const std::string &format);

}  // namespace sbx::reports
