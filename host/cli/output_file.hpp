// Files a command writes on request (--plot, --report, --out), checked before any work:
// a typo in the folder is exit 2 at once, not after a matrix (and write_file_atomically
// would create the missing folder instead).
#pragma once

#include <string>

namespace sbx::cli {

// Throws InputError "<option> '<path>' ..." when `path` names no file, is a directory, or
// lies in a folder that does not exist; `example` is a file name to suggest.
void check_output_file(const std::string &path, const std::string &option,
                       const std::string &example);

}  // namespace sbx::cli
