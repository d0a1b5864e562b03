// ATTACH the shard, copy row by row with the ids mapped (presets by body, runs
// to new ids), DETACH. SQLite refuses ATTACH inside a transaction, so the transaction sits
// between the two.
#include "cluster/shard_merge.hpp"

#include <optional>

#include <spdlog/spdlog.h>

#include "store/cleanup_counters.hpp"
#include "util/errors.hpp"

namespace sbx::cluster {
namespace {

using store::Connection;
using store::Statement;

// Detaches however the merge ends.
struct Attached {
    Connection &connection;
    Attached(Connection &c, const std::filesystem::path &path) : connection(c) {
        Statement attach(connection.get(), "ATTACH DATABASE ? AS shard");
        attach.bind(1, path.string());
        attach.run();
    }
    ~Attached() {
        try {
            connection.exec("DETACH DATABASE shard");
        } catch (...) {  // a failed detach leaves the connection usable; nothing to do
        }
    }
    Attached(const Attached &) = delete;
    Attached &operator=(const Attached &) = delete;
};

int64_t main_preset_id(Connection &connection, const std::string &name, const std::string &body) {
    Statement find(connection.get(), "SELECT id FROM main.presets WHERE body = ?");
    find.bind(1, body);
    if (find.step()) {
        return find.column_int(0);
    }
    Statement insert(connection.get(), "INSERT INTO main.presets(name, body) VALUES(?, ?)");
    insert.bind(1, name).bind(2, body);
    insert.run();
    return sqlite3_last_insert_rowid(connection.get());
}

bool has_run_tables(Connection &connection) {
    Statement tables(connection.get(),
                     "SELECT count(*) FROM shard.sqlite_master WHERE type = 'table' AND name IN "
                     "('runs', 'steps', 'metrics', 'presets', 'cleanup_counters')");
    return tables.step() && tables.column_int(0) == 5;
}

// The worker's cleanup counters that no earlier merge of this shard took: its own totals
// (every copy of a concurrency spike, every try a sandbox fault discarded, its sweep at
// start: more than the stored step results say) less what the shard's merged_counters
// table says was taken, which this merge then brings up to date. A gauge (a duration) is
// taken as it stands.
store::CleanupCounters new_cleanup_counters(Connection &connection) {
    connection.exec(
        "CREATE TABLE IF NOT EXISTS shard.merged_counters(name TEXT PRIMARY KEY, value REAL "
        "NOT NULL)");
    Statement totals(connection.get(),
                     "SELECT c.name, c.value, coalesce(m.value, 0) FROM shard.cleanup_counters c "
                     "LEFT JOIN shard.merged_counters m ON m.name = c.name");
    store::CleanupCounters fresh;
    while (totals.step()) {
        const std::string name = totals.column_text(0);
        const double total = totals.column_double(1);
        const double taken = totals.column_double(2);
        if (store::is_gauge_counter(name)) {
            if (total != taken) {
                store::add_counter(fresh, name, total);
            }
        } else if (total > taken) {
            store::add_counter(fresh, name, total - taken);
        }
    }
    Statement remember(connection.get(),
                       "INSERT OR REPLACE INTO shard.merged_counters(name, value) SELECT name, "
                       "value FROM shard.cleanup_counters");
    remember.run();
    return fresh;
}

MergeCount copy_runs(Connection &connection, int64_t session) {
    MergeCount count;
    Statement runs(connection.get(),
                   "SELECT r.id, r.workflow, p.name, p.body, r.flag, r.repetition, r.passed "
                   "FROM shard.runs r JOIN shard.presets p ON p.id = r.preset_id ORDER BY r.id");
    Statement present(connection.get(),
                      "SELECT 1 FROM main.runs WHERE session_id = ? AND workflow = ? AND "
                      "preset_id = ? AND flag = ? AND repetition = ?");
    Statement copy_run(
        connection.get(),
        "INSERT INTO main.runs(session_id, workflow, preset_id, flag, repetition, inputs, passed, "
        "failed_step, started_at, wall_s, input_meta, outcome, cell_share) SELECT ?, workflow, ?, "
        "flag, repetition, inputs, passed, failed_step, started_at, wall_s, input_meta, outcome, "
        "cell_share FROM shard.runs WHERE id = ?");
    Statement copy_steps(
        connection.get(),
        "INSERT INTO main.steps(run_id, position, name, status, passed, exit_code, signal, wall_s, "
        "cpu_user_s, cpu_sys_s, max_rss_kb, stdout_bytes, stderr_bytes, result, outcome) SELECT ?, "
        "position, name, status, passed, exit_code, signal, wall_s, cpu_user_s, cpu_sys_s, "
        "max_rss_kb, stdout_bytes, stderr_bytes, result, outcome FROM shard.steps WHERE run_id = "
        "?");
    Statement copy_metrics(connection.get(),
                           "INSERT INTO main.metrics(run_id, name, value) SELECT ?, name, value "
                           "FROM shard.metrics WHERE run_id = ?");
    while (runs.step()) {
        const int64_t shard_run = runs.column_int(0);
        const int64_t preset = main_preset_id(connection, runs.column_text(2), runs.column_text(3));
        present.reset();
        present.bind(1, session)
            .bind(2, runs.column_text(1))
            .bind(3, preset)
            .bind(4, runs.column_text(4))
            .bind(5, runs.column_int(5));
        if (present.step()) {
            ++count.skipped;
            continue;
        }
        copy_run.bind(1, session).bind(2, preset).bind(3, shard_run).run();
        const int64_t run_id = sqlite3_last_insert_rowid(connection.get());
        copy_steps.bind(1, run_id).bind(2, shard_run).run();
        copy_metrics.bind(1, run_id).bind(2, shard_run).run();
        ++count.merged;
        count.passed += runs.column_int(6) != 0 ? 1 : 0;
    }
    store::write_cleanup_counters(connection, new_cleanup_counters(connection));
    return count;
}

}  // namespace

MergeCount merge_shard(store::Store &store, int64_t session,
                       const std::filesystem::path &shard_db) {
    std::error_code error;
    if (!std::filesystem::exists(shard_db, error)) {
        return {};
    }
    try {
        return store.locked([&](Connection &connection) {
            // A task that died between creating its store and making its tables, or a store
            // a lost node left unreadable: nothing to take, so its runs count as missing and
            // are made again. Attaching or reading it is where a store that is not one fails.
            std::optional<Attached> attached;
            std::string unusable;
            try {
                attached.emplace(connection, shard_db);
                if (!has_run_tables(connection)) {
                    unusable = "it has no runs table (its task ended before recording anything)";
                }
            } catch (const std::exception &e) {
                unusable = std::string("it cannot be read: ") + e.what();
            }
            if (!unusable.empty()) {
                spdlog::warn("the shard store {} merges nothing: {}; its runs count as missing",
                             shard_db.string(), unusable);
                return MergeCount{};
            }
            store::Transaction transaction(connection);
            const MergeCount count = copy_runs(connection, session);
            transaction.commit();
            return count;
        });
    } catch (const std::exception &e) {
        throw EnvironmentError("merging the shard store " + shard_db.string() + ": " + e.what());
    }
}

}  // namespace sbx::cluster
