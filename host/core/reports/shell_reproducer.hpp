// A recorded run as lines of shell that run its steps alone — the exact argv, environment,
// stdin and files, byte for byte (NULs included) — for pasting into a terminal or a bug
// report, the way Schemathesis hands back a curl line.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "util/shell_word.hpp"

namespace sbx::reports {

// `header` lines become comments; each spec is one step (see WorkflowRunner::step_specs,
// made with workspace "."), run in a fresh temporary directory.
std::string shell_reproducer(const std::vector<std::string> &header,
                             const std::vector<std::string> &step_names,
                             const std::vector<nlohmann::json> &specs);

using sbx::shell_quote;  // util/shell_word.hpp

// A printf command writing exactly the bytes of `text`.
std::string printf_bytes(const std::string &text);

}  // namespace sbx::reports
