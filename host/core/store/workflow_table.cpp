// Workflows kept in metrics.db.
#include "store/workflow_table.hpp"

#include "util/errors.hpp"
#include "util/number_parse.hpp"

namespace sbx::store {
namespace {

StoredWorkflow read_row(const Statement &row) {
    return {row.column_int(0), row.column_text(1), row.column_text(2), row.column_text(3),
            row.column_text(4)};
}

constexpr const char *kColumns = "SELECT id, name, definition, source, imported_at FROM workflows";

}  // namespace

int64_t import_workflow(Store &store, const StoredWorkflow &workflow) {
    return store.locked([&](Connection &connection) {
        Transaction transaction(connection);
        // Re-importing a name replaces its definition; an id already taken by another
        // name is a conflict the user must resolve (ids are how commands name workflows).
        if (workflow.id != 0) {
            Statement owner(connection.get(), "SELECT name FROM workflows WHERE id = ?");
            owner.bind(1, workflow.id);
            if (owner.step() && owner.column_text(0) != workflow.name) {
                throw InputError(workflow.source + ": workflow id " + std::to_string(workflow.id) +
                                 " is already used by workflow '" + owner.column_text(0) + "' in " +
                                 connection.path() + "; give '" + workflow.name + "' another id");
            }
        }
        Statement existing(connection.get(), "SELECT id FROM workflows WHERE name = ?");
        existing.bind(1, workflow.name);
        const std::optional<int64_t> previous =
            existing.step() ? std::optional<int64_t>(existing.column_int(0)) : std::nullopt;
        const int64_t id = workflow.id != 0 ? workflow.id : previous.value_or(0);
        if (previous) {
            Statement(connection.get(), "DELETE FROM workflows WHERE name = ?")
                .bind(1, workflow.name)
                .run();
        }
        Statement insert(connection.get(),
                         "INSERT INTO workflows(id, name, definition, source, imported_at) "
                         "VALUES(?, ?, ?, ?, ?)");
        if (id != 0) {
            insert.bind(1, id);
        } else {
            insert.bind_null(1);
        }
        insert.bind(2, workflow.name)
            .bind(3, workflow.definition)
            .bind(4, workflow.source)
            .bind(5, utc_now())
            .run();
        const int64_t stored = sqlite3_last_insert_rowid(connection.get());
        transaction.commit();
        return stored;
    });
}

std::vector<StoredWorkflow> stored_workflows(Store &store) {
    return store.locked([&](Connection &connection) {
        std::vector<StoredWorkflow> all;
        Statement query(connection.get(), std::string(kColumns) + " ORDER BY id");
        while (query.step()) {
            all.push_back(read_row(query));
        }
        return all;
    });
}

std::vector<RecordedWorkflow> recorded_workflows(Store &store) {
    return store.locked([&](Connection &connection) {
        std::vector<RecordedWorkflow> all;
        Statement query(connection.get(),
                        "SELECT runs.workflow, MAX(sessions.settings_source) FROM runs "
                        "JOIN sessions ON sessions.id = runs.session_id GROUP BY "
                        "runs.workflow ORDER BY runs.workflow");
        while (query.step()) {
            all.push_back({query.column_text(0), query.column_text(1)});
        }
        return all;
    });
}

std::optional<StoredWorkflow> find_stored_workflow(Store &store, const std::string &name_or_id) {
    // Digits only, fewer than 19 so that they fit int64_t; anything else ("+3", "-1") is a name.
    const auto id = name_or_id.size() < 19
                        ? util::parse_uint64(name_or_id, util::LeadingPlus::refused)
                        : std::nullopt;
    const bool numeric = id.has_value();
    return store.locked([&](Connection &connection) -> std::optional<StoredWorkflow> {
        Statement query(connection.get(),
                        std::string(kColumns) + (numeric ? " WHERE id = ?" : " WHERE name = ?"));
        if (numeric) {
            query.bind(1, static_cast<int64_t>(*id));
        } else {
            query.bind(1, name_or_id);
        }
        if (!query.step()) {
            return std::nullopt;
        }
        return read_row(query);
    });
}

}  // namespace sbx::store
