// The SQLite schema as an ordered list of migrations; PRAGMA user_version records how
// many have been applied. A migration is never edited once released: add a new one.
#pragma once

#include "store/sqlite_handle.hpp"

namespace sbx::store {

// The schema version this build writes.
int latest_schema_version();

// Applies the missing migrations, each in its own transaction. Throws EnvironmentError
// when the database was written by a newer sandbox-runner.
void migrate(Connection &connection);

}  // namespace sbx::store
