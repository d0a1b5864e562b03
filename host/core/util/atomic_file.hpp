// Replacing a file so readers see the old or the new content, never a torn one.
#pragma once

#include <filesystem>
#include <string>

namespace sbx {

// Writes `content` to a temporary file beside `path`, then renames it over `path`
// (creating missing parent directories). Throws EnvironmentError naming the path.
void write_file_atomically(const std::filesystem::path &path, const std::string &content);

}  // namespace sbx
