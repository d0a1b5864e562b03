// Reading a whole input file (settings, presets) the user named on the command line.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>

namespace sbx {

// The most an input file may hold. Rationale: inputs may come from a pipe
// (`--preset-file <(...)`), so their size is unknown up front, and a path such as
// /dev/zero must end in an error instead of eating all memory.
constexpr size_t kMaxInputFileBytes = size_t{64} << 20;

// The file's bytes. `what` names the file in errors ("the settings file"). Throws
// InputError "<path>: cannot read <what> (<reason>); <hint>" when the path is a directory,
// cannot be opened or read, or holds more than `limit` bytes.
std::string read_input_file(const std::filesystem::path &path, const std::string &what,
                            const std::string &hint, size_t limit = kMaxInputFileBytes);

}  // namespace sbx
