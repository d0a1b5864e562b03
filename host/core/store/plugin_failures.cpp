#include "store/plugin_failures.hpp"

#include "store/alert_dispatch.hpp"

namespace sbx::store {

void record_plugin_failure(Store &store, int64_t session_id, const PluginFailure &entry) {
    store.locked([&](Connection &connection) {
        Statement insert(connection.get(),
                         "INSERT OR IGNORE INTO plugin_failures VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, "
                         "?, ?, ?, ?)");
        insert.bind(1, session_id)
            .bind(2, entry.id)
            .bind(3, entry.kind)
            .bind(4, entry.path)
            .bind(5, entry.call)
            .bind(6, entry.failure)
            .bind(7, entry.reason)
            .bind(8, entry.context)
            .bind(9, entry.run_id)
            .bind(10, entry.request_file)
            .bind(11, entry.replay)
            .bind(12, entry.advice)
            .bind(13, utc_now())
            .run();
    });
    raise_alert(store, {session_id, "plugin_disabled", entry.id,
                        "plugin " + entry.id + " (" + entry.kind + ") was disabled after a " +
                            entry.failure + " in " + entry.call + " (" + entry.context +
                            "): " + entry.reason,
                        false, ""});
}

std::vector<PluginFailure> plugin_failures(Connection &connection, int64_t session_id) {
    // A database of schema 10 or older, opened read-only (not migrated), has no such table.
    Statement exists(connection.get(),
                     "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = "
                     "'plugin_failures'");
    if (!exists.step()) {
        return {};
    }
    Statement query(connection.get(),
                    "SELECT plugin_id, kind, path, call, failure, reason, context, run_id, "
                    "request_file, replay, advice FROM plugin_failures WHERE session_id = ? "
                    "ORDER BY at, plugin_id");
    query.bind(1, session_id);
    std::vector<PluginFailure> found;
    while (query.step()) {
        PluginFailure entry;
        entry.id = query.column_text(0);
        entry.kind = query.column_text(1);
        entry.path = query.column_text(2);
        entry.call = query.column_text(3);
        entry.failure = query.column_text(4);
        entry.reason = query.column_text(5);
        entry.context = query.column_text(6);
        if (!query.column_is_null(7)) {
            entry.run_id = query.column_int(7);
        }
        entry.request_file = query.column_text(8);
        entry.replay = query.column_text(9);
        entry.advice = query.column_text(10);
        found.push_back(std::move(entry));
    }
    return found;
}

}  // namespace sbx::store
