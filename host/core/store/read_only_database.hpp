// metrics.db opened for reading only, by the commands that show what was recorded (report,
// serve-dashboard, show-synergy): nothing is created, migrated or written, so they may run
// beside a matrix that is writing, and on a copy the user cannot write.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>

#include "store/sqlite_handle.hpp"

namespace sbx::store {

// The database at `path`, or nullopt when there is no file (nothing recorded yet).
// Throws EnvironmentError when it cannot be read or has a newer schema than this host
// knows, InputError when its schema predates `minimum_version` (-1: this host's latest,
// which the readers' queries assume; nothing migrates a database opened read-only).
std::unique_ptr<Connection> open_read_only(const std::filesystem::path &path,
                                           int minimum_version = -1);

}  // namespace sbx::store
