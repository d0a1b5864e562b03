// Scenario scores, trajectories, synergy and recovery queries over metrics.db.
#include "store/matrix_records.hpp"
#include "store/session_owner.hpp"

namespace sbx::store {

int discard_unfinished_runs(Store &store, int64_t session_id) {
    return store.locked([&](Connection &connection) {
        Transaction transaction(connection);
        const std::string orphans =
            "SELECT runs.id FROM runs WHERE runs.session_id = ?1 AND runs.cell_share IS NULL AND "
            "NOT EXISTS (SELECT 1 FROM "
            "cells WHERE cells.session_id = runs.session_id AND cells.workflow = runs.workflow "
            "AND cells.preset_id = runs.preset_id AND cells.flag = runs.flag)";
        Statement(connection.get(), "DELETE FROM metrics WHERE run_id IN (" + orphans + ")")
            .bind(1, session_id)
            .run();
        Statement(connection.get(), "DELETE FROM steps WHERE run_id IN (" + orphans + ")")
            .bind(1, session_id)
            .run();
        Statement(connection.get(), "DELETE FROM runs WHERE id IN (" + orphans + ")")
            .bind(1, session_id)
            .run();
        const int removed = sqlite3_changes(connection.get());
        transaction.commit();
        return removed;
    });
}

std::optional<ResumableSession> latest_unfinished_session(Store &store,
                                                          const std::string &command) {
    return store.locked([&](Connection &connection) -> std::optional<ResumableSession> {
        Statement query(connection.get(),
                        "SELECT id, status, seed, options FROM sessions WHERE command = ? "
                        "ORDER BY id DESC LIMIT 1");
        query.bind(1, command);
        if (!query.step() || query.column_text(1) == "finished") {
            return std::nullopt;
        }
        ResumableSession session;
        session.id = query.column_int(0);
        session.status = query.column_text(1);
        if (!query.column_is_null(2)) {
            session.seed = query.column_int(2);
        }
        session.options = query.column_is_null(3) ? nlohmann::json::object()
                                                  : nlohmann::json::parse(query.column_text(3));
        return session;
    });
}

std::optional<std::pair<std::string, std::string>> session_status(Store &store,
                                                                  int64_t session_id) {
    return store.locked(
        [&](Connection &connection) -> std::optional<std::pair<std::string, std::string>> {
            Statement query(connection.get(), "SELECT status, command FROM sessions WHERE id = ?");
            query.bind(1, session_id);
            if (!query.step()) {
                return std::nullopt;
            }
            return std::pair(query.column_text(0), query.column_text(1));
        });
}

void reopen_session(Store &store, int64_t session_id) {
    store.locked([&](Connection &connection) {
        // The recovering host owns it now: a later command must not take it for crashed.
        Statement(connection.get(),
                  "UPDATE sessions SET status = 'running', finished_at = NULL, "
                  "host_process = ?, ended_note = NULL, recoveries = recoveries + 1 "
                  "WHERE id = ?")
            .bind(1, this_host_process())
            .bind(2, session_id)
            .run();
    });
}

void record_scenario_scores(Store &store, int64_t session_id, const std::string &workflow,
                            const std::vector<ScenarioScoreRow> &rows) {
    store.locked([&](Connection &connection) {
        Transaction transaction(connection);
        Statement insert(connection.get(),
                         "INSERT OR REPLACE INTO scenario_scores VALUES(?, ?, ?, ?, ?, ?, ?, ?, "
                         "?, ?, ?, ?, ?, ?, ?)");
        int64_t position = 0;
        for (const auto &row : rows) {
            insert.bind(1, session_id)
                .bind(2, workflow)
                .bind(3, row.scenario)
                .bind(4, position++)
                .bind(5, row.roi_on)
                .bind(6, row.roi_off)
                .bind(7, row.roi_delta)
                .bind(8, row.raroi_on)
                .bind(9, row.raroi_off)
                .bind(10, row.raroi_delta)
                .bind(11, int64_t{row.failed ? 1 : 0})
                .bind(12, int64_t{row.worst ? 1 : 0})
                .bind(13, row.details.dump());
            if (row.not_applicable.empty()) {
                insert.bind_null(14);
            } else {
                insert.bind(14, row.not_applicable);
            }
            if (row.inconclusive.empty()) {
                insert.bind_null(15);
            } else {
                insert.bind(15, row.inconclusive);
            }
            insert.run();
        }
        transaction.commit();
    });
}

void record_trajectory(Store &store, int64_t session_id, const std::string &workflow,
                       const std::vector<TrajectoryRow> &rows) {
    store.locked([&](Connection &connection) {
        Transaction transaction(connection);
        Statement insert(connection.get(),
                         "INSERT OR REPLACE INTO trajectory_stages VALUES(?, ?, ?, ?, ?, ?, ?, ?)");
        int64_t position = 0;
        for (const auto &row : rows) {
            insert.bind(1, session_id)
                .bind(2, workflow)
                .bind(3, position++)
                .bind(4, row.stage)
                .bind(5, row.roi)
                .bind(6, row.degradation)
                .bind(7, row.resilience)
                .bind(8, row.stability)
                .run();
        }
        transaction.commit();
    });
}

void record_synergy(Store &store, int64_t session_id, const std::string &subject,
                    const std::string &scenario, const std::map<std::string, double> &values) {
    store.locked([&](Connection &connection) {
        Transaction transaction(connection);
        Statement insert(connection.get(), "INSERT OR REPLACE INTO synergy VALUES(?, ?, ?, ?, ?)");
        for (const auto &[name, value] : values) {
            insert.bind(1, session_id)
                .bind(2, subject)
                .bind(3, scenario)
                .bind(4, name)
                .bind(5, value)
                .run();
        }
        transaction.commit();
    });
}

}  // namespace sbx::store
