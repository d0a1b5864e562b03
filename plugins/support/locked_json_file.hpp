// A JSON object kept in a file that several processes (every worker's instance, other hosts)
// read and rewrite: each change happens under an exclusive flock on `<path>.lock` and is
// written to a temporary file renamed over the old one, so a reader never sees half a file.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>

namespace sbx::support {

// Reads the object in `path` (absent: {}), lets `change` edit it, writes it back, and
// returns it as written. Creates the parent folder on demand. A file that does not parse is
// moved to `<path>.unreadable` first. Throws std::runtime_error when the lock cannot be
// taken or the new content cannot be written (the old file then stays as it was).
nlohmann::json update_json_file(const std::string &path,
                                const std::function<void(nlohmann::json &)> &change);
// The object in `path`, or {} when it is absent or not a JSON object.
nlohmann::json read_json_file(const std::string &path);

}  // namespace sbx::support
