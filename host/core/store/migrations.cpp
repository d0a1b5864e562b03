// Schema migrations. docs/sqlite-schema.md describes every table and column.
#include "store/migrations.hpp"

#include <string>
#include <vector>

#include "util/errors.hpp"

namespace sbx::store {
namespace {

const std::vector<const char *> &migrations() {
    static const std::vector<const char *> steps = {
        // 1: sessions, plugins, presets, runs, steps, cells, metrics, predictions.
        R"sql(
        CREATE TABLE sessions(
            id INTEGER PRIMARY KEY,
            command TEXT NOT NULL,
            started_at TEXT NOT NULL,
            finished_at TEXT,
            status TEXT NOT NULL DEFAULT 'running',
            seed INTEGER,
            settings_source TEXT NOT NULL,
            host_version TEXT NOT NULL);
        CREATE TABLE plugins_used(
            session_id INTEGER NOT NULL REFERENCES sessions(id),
            plugin_id TEXT NOT NULL,
            kind TEXT NOT NULL,
            version TEXT NOT NULL,
            abi TEXT NOT NULL,
            path TEXT NOT NULL,
            PRIMARY KEY(session_id, plugin_id));
        CREATE TABLE presets(
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            body TEXT NOT NULL UNIQUE);
        CREATE TABLE runs(
            id INTEGER PRIMARY KEY,
            session_id INTEGER NOT NULL REFERENCES sessions(id),
            workflow TEXT NOT NULL,
            preset_id INTEGER NOT NULL REFERENCES presets(id),
            flag TEXT NOT NULL,
            repetition INTEGER NOT NULL,
            inputs TEXT NOT NULL,
            passed INTEGER NOT NULL,
            failed_step TEXT,
            started_at TEXT NOT NULL,
            wall_s REAL NOT NULL);
        CREATE INDEX runs_by_workflow ON runs(workflow, preset_id);
        CREATE TABLE steps(
            run_id INTEGER NOT NULL REFERENCES runs(id),
            position INTEGER NOT NULL,
            name TEXT NOT NULL,
            status TEXT NOT NULL,
            passed INTEGER NOT NULL,
            exit_code INTEGER,
            signal INTEGER,
            wall_s REAL,
            cpu_user_s REAL,
            cpu_sys_s REAL,
            max_rss_kb INTEGER,
            stdout_bytes INTEGER,
            stderr_bytes INTEGER,
            result TEXT NOT NULL,
            PRIMARY KEY(run_id, position));
        CREATE TABLE cells(
            id INTEGER PRIMARY KEY,
            session_id INTEGER NOT NULL REFERENCES sessions(id),
            workflow TEXT NOT NULL,
            preset_id INTEGER NOT NULL REFERENCES presets(id),
            flag TEXT NOT NULL,
            runs INTEGER NOT NULL,
            passed INTEGER NOT NULL,
            roi REAL NOT NULL,
            finished_at TEXT NOT NULL);
        CREATE INDEX cells_by_subject ON cells(workflow, preset_id, flag);
        CREATE TABLE metrics(
            run_id INTEGER REFERENCES runs(id),
            cell_id INTEGER REFERENCES cells(id),
            name TEXT NOT NULL,
            value REAL NOT NULL,
            CHECK ((run_id IS NULL) <> (cell_id IS NULL)));
        CREATE INDEX metrics_by_run ON metrics(run_id);
        CREATE TABLE predictions(
            id INTEGER PRIMARY KEY,
            session_id INTEGER NOT NULL REFERENCES sessions(id),
            subject TEXT NOT NULL,
            method TEXT NOT NULL,
            value REAL,
            lower REAL,
            upper REAL,
            points INTEGER NOT NULL,
            created_at TEXT NOT NULL);
        )sql",
        // 2: scenario matrices (options for --recover, per-scenario scores), workflows kept
        // in the database, trajectory stages, synergy values.
        R"sql(
        ALTER TABLE sessions ADD COLUMN options TEXT;
        CREATE INDEX metrics_by_cell ON metrics(cell_id);
        CREATE INDEX cells_by_session ON cells(session_id);
        CREATE INDEX runs_by_session ON runs(session_id, workflow, preset_id, flag);
        CREATE TABLE workflows(
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            definition TEXT NOT NULL,
            source TEXT NOT NULL,
            imported_at TEXT NOT NULL);
        CREATE TABLE scenario_scores(
            session_id INTEGER NOT NULL REFERENCES sessions(id),
            workflow TEXT NOT NULL,
            scenario TEXT NOT NULL,
            position INTEGER NOT NULL,
            roi_on REAL NOT NULL,
            roi_off REAL NOT NULL,
            roi_delta REAL NOT NULL,
            raroi_on REAL NOT NULL,
            raroi_off REAL NOT NULL,
            raroi_delta REAL NOT NULL,
            failed INTEGER NOT NULL,
            worst INTEGER NOT NULL,
            details TEXT NOT NULL,
            PRIMARY KEY(session_id, workflow, scenario));
        CREATE INDEX scenario_scores_by_scenario ON scenario_scores(scenario);
        CREATE TABLE trajectory_stages(
            session_id INTEGER NOT NULL REFERENCES sessions(id),
            workflow TEXT NOT NULL,
            position INTEGER NOT NULL,
            stage TEXT NOT NULL,
            roi REAL NOT NULL,
            degradation REAL NOT NULL,
            resilience REAL NOT NULL,
            stability REAL NOT NULL,
            PRIMARY KEY(session_id, workflow, stage));
        CREATE TABLE synergy(
            session_id INTEGER NOT NULL REFERENCES sessions(id),
            subject TEXT NOT NULL,
            scenario TEXT NOT NULL,
            name TEXT NOT NULL,
            value REAL NOT NULL,
            PRIMARY KEY(session_id, subject, scenario, name));
        )sql",
        // 3: what the stub strategy did to each run's inputs (for replay and failure
        // categories), and generated input sets kept for reuse.
        R"sql(
        ALTER TABLE runs ADD COLUMN input_meta TEXT;
        CREATE TABLE stub_cache(
            workflow TEXT NOT NULL,
            strategy TEXT NOT NULL,
            seed INTEGER NOT NULL,
            request_hash TEXT NOT NULL,
            created_at TEXT NOT NULL,
            response TEXT NOT NULL,
            PRIMARY KEY(workflow, strategy, seed, request_hash));
        )sql",
        // 4: what executors and injectors report having cleaned up (run results' `cleanup`,
        // sweep responses' `counters`), accumulated for the metrics exporter.
        R"sql(
        CREATE TABLE cleanup_counters(
            name TEXT PRIMARY KEY,
            value REAL NOT NULL,
            updated_at TEXT NOT NULL);
        )sql",
        // 5: outcome classes (how each run and step of a target ended: accepted, rejected,
        // crashed, hung, failed) and scenarios whose faults could not reach the target.
        R"sql(
        ALTER TABLE runs ADD COLUMN outcome TEXT;
        ALTER TABLE steps ADD COLUMN outcome TEXT;
        ALTER TABLE cells ADD COLUMN not_applicable TEXT;
        ALTER TABLE scenario_scores ADD COLUMN not_applicable TEXT;
        )sql",
        // 6: which host process owns a running session (so the next command can tell a
        // crashed host's session from a live one) and why a session ended as it did.
        R"sql(
        ALTER TABLE sessions ADD COLUMN host_process TEXT;
        ALTER TABLE sessions ADD COLUMN ended_note TEXT;
        )sql",
        // 7: what each run contributes to its cell beyond `passed` and its metrics, so
        // --recover keeps the committed runs of a cell it did not finish.
        R"sql(
        ALTER TABLE runs ADD COLUMN cell_share TEXT;
        )sql",
        // 8: forecasts paired with what then happened (`actual`), the forecasts of the
        // compared predictors beside the shown one, and the method `auto` chose.
        R"sql(
        ALTER TABLE predictions ADD COLUMN actual REAL;
        ALTER TABLE predictions ADD COLUMN chosen TEXT;
        ALTER TABLE predictions ADD COLUMN shown INTEGER NOT NULL DEFAULT 1;
        CREATE INDEX predictions_by_subject ON predictions(subject, points);
        )sql",
        // 9: a run found by its place (session, workflow, preset, flag, repetition) in one
        // index lookup. Merging Slurm shards asks that for every run; runs_by_session
        // stopped at the flag, so each ask scanned the cell's runs (quadratic in a cell's
        // repetitions). The longer index serves every query of the shorter one.
        R"sql(
        CREATE INDEX IF NOT EXISTS runs_by_place
            ON runs(session_id, workflow, preset_id, flag, repetition);
        DROP INDEX IF EXISTS runs_by_session;
        )sql",
        // 10: runs that were errors of the setup (an injector or the executor failed, a
        // service did not start), not verdicts on the target, and the scenarios whose verdict
        // such errors made inconclusive.
        R"sql(
        ALTER TABLE cells ADD COLUMN errored_runs INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE scenario_scores ADD COLUMN inconclusive TEXT;
        )sql",
        // 11: metrics collectors and predictors a session disabled after a failed call, with
        // where it failed and the saved request that replays it.
        R"sql(
        CREATE TABLE plugin_failures(
            session_id INTEGER NOT NULL REFERENCES sessions(id),
            plugin_id TEXT NOT NULL,
            kind TEXT NOT NULL,
            path TEXT NOT NULL,
            call TEXT NOT NULL,
            failure TEXT NOT NULL,
            reason TEXT NOT NULL,
            context TEXT NOT NULL,
            run_id INTEGER,
            request_file TEXT NOT NULL,
            replay TEXT NOT NULL,
            advice TEXT NOT NULL,
            at TEXT NOT NULL,
            PRIMARY KEY(session_id, plugin_id));
        )sql",
        // 12: how often a session was taken up again by --recover, and when it last ended
        // other than finished (interrupted, failed, crashed): the `sandbox_restart_total`
        // and `sandbox_last_failure_ts` gauges. A recovery clears finished_at, not this.
        // And the alerts raised, each with whether the alert command took it.
        R"sql(
        ALTER TABLE sessions ADD COLUMN recoveries INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE sessions ADD COLUMN failed_at TEXT;
        UPDATE sessions SET failed_at = finished_at
            WHERE status IN ('interrupted', 'failed', 'crashed');
        CREATE TABLE alerts(
            id INTEGER PRIMARY KEY,
            at TEXT NOT NULL,
            session_id INTEGER,
            kind TEXT NOT NULL,
            subject TEXT NOT NULL,
            message TEXT NOT NULL,
            delivered INTEGER NOT NULL,
            error TEXT NOT NULL);
        )sql",
    };
    return steps;
}

int current_version(Connection &connection) {
    Statement query(connection.get(), "PRAGMA user_version");
    query.step();
    return static_cast<int>(query.column_int(0));
}

}  // namespace

int latest_schema_version() {
    return static_cast<int>(migrations().size());
}

void migrate(Connection &connection) {
    const int found = current_version(connection);
    if (found > latest_schema_version()) {
        throw EnvironmentError(connection.path() + " has schema version " + std::to_string(found) +
                               " but this sandbox-runner knows only " +
                               std::to_string(latest_schema_version()) +
                               "; use a newer sandbox-runner or another --data-dir");
    }
    for (int version = found + 1; version <= latest_schema_version(); ++version) {
        Transaction transaction(connection);
        connection.exec(migrations()[static_cast<size_t>(version - 1)]);
        connection.exec("PRAGMA user_version = " + std::to_string(version));
        transaction.commit();
    }
}

}  // namespace sbx::store
