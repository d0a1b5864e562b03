// Failed system calls as readable text: "open /x/y: No such file or directory (ENOENT)".
// Messages name the call and the path, the way bubblewrap reports failures.
#pragma once

#include <sbx/plugin.hpp>

#include <string>

namespace sbx::support {

// "No such file or directory (ENOENT)".
std::string errno_text(int error_number);

// Throws sbx::Error(status, "<what>: <errno text>").
[[noreturn]] void throw_system_error(const std::string &what, int error_number,
                                     sbx_status status = SBX_ERROR);

}  // namespace sbx::support
