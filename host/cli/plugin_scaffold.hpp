// `plugins new KIND NAME [DIR]`: writes a plugin project that builds against the installed
// SDK alone and loads as generated (CMakeLists.txt, one source on sbx/plugin.hpp with an
// embedded configuration schema, README.md).
#pragma once

#include <string>
#include <vector>

namespace sbx::cli {

// `args` are the words after `plugins new`. Exit 0 once the project is written; 2 for a
// bad kind or name or a DIR that exists (nothing is written then).
int new_plugin(const std::vector<std::string> &args);

}  // namespace sbx::cli
