// The global options (those before the command), described once: main() parses with this
// description, and the help, the man page and the completions print it.
#pragma once

#include <boost/program_options.hpp>

#include "cli_context.hpp"

namespace sbx::cli {

// The options bound to `bind`'s fields.
boost::program_options::options_description global_options(GlobalOptions &bind);

// The description alone, for the help texts.
const boost::program_options::options_description &global_options_for_help();

// "sandbox-runner 0.1.0\nplugin ABI 1.2 (sbx.executor/1, ...)\nbuild: ...\n"
std::string version_text();

}  // namespace sbx::cli
