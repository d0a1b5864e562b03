// Every help text from one source, the command table and the global options: `--help`,
// `help COMMAND` (and `COMMAND --help`), and the man page the build installs.
#pragma once

#include <string>

#include "command_table.hpp"

namespace sbx::cli {

// `sandbox-runner --help`: usage, commands, global options.
std::string general_help();

// `sandbox-runner help NAME`: its usage, what it does, its alias.
std::string command_help(const Command &command);

// sandbox-runner(1) in roff (man(7) macros).
std::string man_page();

// `text` broken into lines of at most `width` columns, each prefixed by `indent`.
std::string wrap_text(const std::string &text, std::size_t width, const std::string &indent);

}  // namespace sbx::cli
