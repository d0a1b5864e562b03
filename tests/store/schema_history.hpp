// Older schema versions made from today's, for migration tests: what each migration added,
// taken away again.
#pragma once

#include "store/sqlite_handle.hpp"

namespace sbx::test {

// Undoes migration 5 (outcome classes, not-applicable cells and scenarios).
inline void drop_outcome_columns(store::Connection &connection) {
    connection.exec(
        "ALTER TABLE runs DROP COLUMN outcome; ALTER TABLE steps DROP COLUMN outcome; "
        "ALTER TABLE cells DROP COLUMN not_applicable; "
        "ALTER TABLE scenario_scores DROP COLUMN not_applicable;");
}

// Undoes migration 6 (the host process of a session, and why it ended).
inline void drop_session_owner_columns(store::Connection &connection) {
    connection.exec(
        "ALTER TABLE sessions DROP COLUMN host_process; ALTER TABLE sessions DROP COLUMN "
        "ended_note;");
}

// Undoes migration 7 (what each run contributes to its cell).
inline void drop_cell_share_column(store::Connection &connection) {
    connection.exec("ALTER TABLE runs DROP COLUMN cell_share;");
}

// Undoes migration 8 (forecasts paired with what followed).
inline void drop_forecast_pair_columns(store::Connection &connection) {
    connection.exec(
        "DROP INDEX predictions_by_subject; ALTER TABLE predictions DROP COLUMN actual; "
        "ALTER TABLE predictions DROP COLUMN chosen; ALTER TABLE predictions DROP COLUMN shown;");
}

// Undoes migration 9 (runs found by their place in one lookup).
inline void restore_runs_by_session_index(store::Connection &connection) {
    connection.exec(
        "DROP INDEX runs_by_place; CREATE INDEX runs_by_session ON runs(session_id, workflow, "
        "preset_id, flag);");
}

// Undoes migration 10 (runs that were errors of the setup, inconclusive scenarios).
inline void drop_run_error_columns(store::Connection &connection) {
    connection.exec(
        "ALTER TABLE cells DROP COLUMN errored_runs; ALTER TABLE scenario_scores DROP COLUMN "
        "inconclusive;");
}

// Version 11 added the plugin_failures table.
inline void drop_plugin_failures_table(store::Connection &connection) {
    connection.exec("DROP TABLE plugin_failures;");
}

// Undoes migration 12 (restarts, the last failure, alerts).
inline void drop_operations_columns(store::Connection &connection) {
    connection.exec(
        "ALTER TABLE sessions DROP COLUMN recoveries; ALTER TABLE sessions DROP COLUMN failed_at; "
        "DROP TABLE alerts;");
}

}  // namespace sbx::test
