// The host's one logger (spdlog): human-readable lines on stderr, or one JSON object per
// line with SANDBOX_JSON_LOGS=1 / --json-logs. Plugins log into it through sbx_host.log.
#pragma once

#include <spdlog/spdlog.h>

#include <string>

namespace sbx::logging {

// Parses "trace|debug|info|warn|error|critical|off" (the same set as log_level:); throws InputError
// naming `origin`.
spdlog::level::level_enum parse_level(const std::string &text, const std::string &origin);

// Installs the default logger on stderr with the given level and format.
void setup(spdlog::level::level_enum level, bool json_lines);

}  // namespace sbx::logging
