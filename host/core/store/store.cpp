// The results database: sessions, runs with their steps and metrics, cells, predictions.
#include "store/store.hpp"

#include <chrono>
#include <ctime>
#include <exception>
#include <filesystem>
#include <stdexcept>

#include <spdlog/spdlog.h>

#include "store/alert_dispatch.hpp"
#include "store/cleanup_counters.hpp"
#include "store/journal_mode.hpp"
#include "store/migrations.hpp"
#include "store/session_owner.hpp"
#include "util/errors.hpp"

namespace sbx::store {
namespace {

// How long written runs wait for their commit, to be committed with those written meanwhile.
// The most a SIGKILL can lose beyond the runs in flight.
constexpr std::chrono::milliseconds kCommitEvery{20};

std::string open_path(const std::filesystem::path &db_path) {
    std::error_code ec;
    if (db_path.has_parent_path()) {
        std::filesystem::create_directories(db_path.parent_path(), ec);
        if (ec) {
            throw EnvironmentError("cannot create data directory " +
                                   db_path.parent_path().string() + ": " + ec.message());
        }
    }
    return db_path.string();
}

void bind_optional(Statement &statement, int index, const std::optional<double> &value) {
    if (value) {
        statement.bind(index, *value);
    } else {
        statement.bind_null(index);
    }
}

// "" is stored as NULL: an optional text column (an outcome, a reason) left unsaid.
void bind_text_or_null(Statement &statement, int index, const std::string &value) {
    if (value.empty()) {
        statement.bind_null(index);
    } else {
        statement.bind(index, value);
    }
}

}  // namespace

std::string utc_now() {
    const auto now = std::chrono::system_clock::now();
    const auto seconds = std::chrono::system_clock::to_time_t(now);
    const auto millis =
        std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() %
        1000;
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char text[40];
    const size_t length = std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%S", &utc);
    return std::string(text, length) + "." + (millis < 100 ? (millis < 10 ? "00" : "0") : "") +
           std::to_string(millis) + "Z";
}

Store::Store(const std::filesystem::path &db_path) : connection_(open_path(db_path)) {
    // WAL where the filesystem is local (journal_mode.hpp says why not elsewhere).
    // synchronous=NORMAL: a commit survives a crash or SIGKILL of the host (not a power
    // cut), at a fraction of the cost of FULL — the right trade for per-run commits. A
    // rollback journal needs FULL for the same (with NORMAL, a power cut can corrupt it),
    // and that is the lost-node case of a Slurm worker's shard store.
    const char *mode = journal_mode_for(std::filesystem::absolute(db_path).parent_path());
    const bool wal = std::string(mode) == "WAL";
    try {
        connection_.exec(std::string("PRAGMA journal_mode=") + mode);
    } catch (const std::exception &e) {
        // Leaving WAL needs the file to itself: another process has it open. The mode
        // stays as it was, which works as well as it did.
        spdlog::warn("{}: journal mode {} not set ({}); keeping the current one", db_path.string(),
                     mode, e.what());
    }
    connection_.exec(wal ? "PRAGMA synchronous=NORMAL" : "PRAGMA synchronous=FULL");
    connection_.exec("PRAGMA foreign_keys=ON");
    migrate(connection_);
    crashed_on_open_ = mark_crashed_sessions(connection_);
    insert_run_.emplace(connection_.get(),
                        "INSERT INTO runs(session_id, workflow, preset_id, flag, repetition, "
                        "inputs, passed, failed_step, started_at, wall_s, input_meta, outcome, "
                        "cell_share) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    insert_step_.emplace(connection_.get(),
                         "INSERT INTO steps VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    insert_run_metric_.emplace(connection_.get(),
                               "INSERT INTO metrics(run_id, name, value) VALUES(?, ?, ?)");
    savepoint_.emplace(connection_.get(), "SAVEPOINT run");
    release_.emplace(connection_.get(), "RELEASE run");
    rollback_to_.emplace(connection_.get(), "ROLLBACK TO run");
    committer_ = std::thread([this] { commit_loop(); });
    for (const int64_t session : crashed_on_open_) {
        std::string note;
        {
            Statement query(connection_.get(), "SELECT ended_note FROM sessions WHERE id = ?");
            query.bind(1, session);
            note = query.step() ? query.column_text(0) : "";
        }
        raise_alert(*this, {session, "session_crashed", std::to_string(session),
                            "session " + std::to_string(session) + " crashed: " + note +
                                "; --recover finishes it",
                            false, ""});
    }
}

Store::~Store() {
    {
        const std::lock_guard<std::mutex> guard(mutex_);
        stopping_ = true;
    }
    written_.notify_one();
    committer_.join();
}

void Store::commit_open() {
    if (!open_) {
        return;
    }
    open_ = false;
    try {
        connection_.commit();
    } catch (...) {
        commit_error_ = std::current_exception();
        try {
            connection_.rollback();
        } catch (...) {  // SQLite rolled back itself: nothing half-written stays
        }
    }
}

void Store::commit_loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
        // Every 20 ms the runs queued or written meanwhile go in one transaction. Polled,
        // not woken: a worker queues a run without waiting for this lock.
        written_.wait_for(lock, kCommitEvery, [this] { return stopping_; });
        write_queued();
        commit_open();
        if (stopping_) {
            if (commit_error_) {
                try {
                    std::rethrow_exception(commit_error_);
                } catch (const std::exception &e) {
                    spdlog::error("{}: the last runs were not committed: {}", connection_.path(),
                                  e.what());
                }
            }
            return;
        }
    }
}

std::unique_lock<std::mutex> Store::lock_committed() {
    std::unique_lock<std::mutex> lock(mutex_);
    write_queued();
    commit_open();
    if (commit_error_) {
        std::rethrow_exception(commit_error_);
    }
    return lock;
}

int Store::schema_version() {
    const auto guard = lock_committed();
    Statement query(connection_.get(), "PRAGMA user_version");
    query.step();
    return static_cast<int>(query.column_int(0));
}

int64_t Store::begin_session(const std::string &command, const std::string &settings_source,
                             std::optional<int64_t> seed, const nlohmann::json &options) {
    // A settings file by absolute path: replay lines and `workflows list` name it to users
    // who may be in another folder. An embedded source ("... (embedded)") stays as it is.
    std::string source = settings_source;
    if (std::error_code error; std::filesystem::is_regular_file(source, error)) {
        source = std::filesystem::absolute(source, error).lexically_normal().string();
    }
    const auto guard = lock_committed();
    Statement insert(connection_.get(),
                     "INSERT INTO sessions(command, started_at, seed, settings_source, "
                     "host_version, options, host_process) VALUES(?, ?, ?, ?, ?, ?, ?)");
    insert.bind(1, command).bind(2, utc_now()).bind(4, source).bind(5, SBX_VERSION);
    insert.bind(7, this_host_process());
    if (options.is_null()) {
        insert.bind_null(6);
    } else {
        insert.bind(6, options.dump());
    }
    if (seed) {
        insert.bind(3, *seed);
    } else {
        insert.bind_null(3);
    }
    insert.run();
    return sqlite3_last_insert_rowid(connection_.get());
}

void Store::finish_session(int64_t session_id, const std::string &status) {
    {
        const auto guard = lock_committed();
        // Any ending but `finished` is a failure of the session, kept across a recovery.
        Statement update(connection_.get(),
                         "UPDATE sessions SET finished_at = ?1, status = ?2, failed_at = CASE "
                         "WHEN ?2 = 'finished' THEN failed_at ELSE ?1 END WHERE id = ?3");
        update.bind(1, utc_now()).bind(2, status).bind(3, session_id).run();
    }
    raise_session_end_alerts(*this, session_id, status);
}

void Store::record_plugins(int64_t session_id, const std::vector<PluginRecord> &plugins) {
    const auto guard = lock_committed();
    Transaction transaction(connection_);
    Statement insert(connection_.get(),
                     "INSERT OR REPLACE INTO plugins_used VALUES(?, ?, ?, ?, ?, ?)");
    for (const auto &plugin : plugins) {
        insert.bind(1, session_id)
            .bind(2, plugin.id)
            .bind(3, plugin.kind)
            .bind(4, plugin.version)
            .bind(5, plugin.abi)
            .bind(6, plugin.path)
            .run();
    }
    transaction.commit();
}

int64_t Store::preset_id(const std::string &name, const nlohmann::json &body) {
    const auto guard = lock_committed();
    const std::string canonical = body.dump();  // nlohmann orders object keys: canonical
    Statement find(connection_.get(), "SELECT id FROM presets WHERE body = ?");
    find.bind(1, canonical);
    if (find.step()) {
        return find.column_int(0);
    }
    Statement insert(connection_.get(), "INSERT INTO presets(name, body) VALUES(?, ?)");
    insert.bind(1, name).bind(2, canonical).run();
    return sqlite3_last_insert_rowid(connection_.get());
}

// A run queued by record_run_later, until the committer (or the next call) writes it.
struct Store::QueuedRun {
    uint64_t ticket = 0;
    RunRecord run;
};

// A run on its way to the database: its JSON texts are made before the lock is taken, so
// the time under the lock is SQLite's alone.
struct Store::PendingRun {
    const RunRecord &run;
    std::string inputs_text;
    std::optional<std::string> input_meta_text;
    std::string cell_share_text;  // "" for none
    std::vector<std::string> step_texts;

    explicit PendingRun(const RunRecord &record)
        : run(record),
          inputs_text(
              record.inputs.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)) {
        if (!record.input_meta.is_null()) {
            input_meta_text =
                record.input_meta.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        }
        if (!record.cell_share.is_null()) {
            cell_share_text =
                record.cell_share.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        }
        for (const auto &step : record.steps) {
            step_texts.push_back(
                !step.result_text.empty()
                    ? step.result_text
                    : step.result.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
        }
    }
};

int64_t Store::record_run(const RunRecord &run) {
    const PendingRun pending(run);
    const std::lock_guard<std::mutex> lock(mutex_);
    if (commit_error_) {
        std::rethrow_exception(commit_error_);
    }
    return write_run(pending);
}

int64_t Store::write_run(const PendingRun &pending) {
    if (!open_) {
        connection_.begin();
        open_ = true;
    }
    // A savepoint per run: one that cannot be written leaves nothing, and the runs written
    // before it in the transaction stay.
    savepoint_->run();
    try {
        const int64_t run_id = insert_run_rows(pending);
        release_->run();
        return run_id;
    } catch (...) {
        for (auto *statement : {&*insert_run_, &*insert_step_, &*insert_run_metric_}) {
            statement->reset();  // a failed step leaves its statement mid-run
        }
        rollback_to_->run();
        release_->run();
        throw;
    }
}

uint64_t Store::record_run_later(RunRecord run) {
    auto queued = std::make_unique<QueuedRun>(QueuedRun{0, std::move(run)});
    const std::lock_guard<std::mutex> guard(queue_mutex_);
    queued->ticket = next_ticket_++;
    queue_.push_back(std::move(queued));
    return queue_.back()->ticket;
}

void Store::write_queued() {
    std::vector<std::unique_ptr<QueuedRun>> batch;
    {
        const std::lock_guard<std::mutex> guard(queue_mutex_);
        batch.swap(queue_);
    }
    for (const auto &queued : batch) {
        int64_t run_id = 0;
        std::exception_ptr error;
        try {
            run_id = write_run(PendingRun(queued->run));
        } catch (...) {
            error = std::current_exception();
        }
        const std::lock_guard<std::mutex> guard(queue_mutex_);
        if (error) {
            write_errors_[queued->ticket] = error;
        } else {
            written_ids_[queued->ticket] = run_id;
        }
    }
}

int64_t Store::written_id(uint64_t ticket) {
    (void)lock_committed();
    const std::lock_guard<std::mutex> guard(queue_mutex_);
    if (const auto failed = write_errors_.find(ticket); failed != write_errors_.end()) {
        const std::exception_ptr error = failed->second;
        write_errors_.erase(failed);
        std::rethrow_exception(error);
    }
    const auto written = written_ids_.find(ticket);
    if (written == written_ids_.end()) {
        throw std::logic_error("store: no run was queued with ticket " + std::to_string(ticket));
    }
    const int64_t run_id = written->second;
    written_ids_.erase(written);
    return run_id;
}

int64_t Store::insert_run_rows(const PendingRun &pending) {
    const RunRecord &run = pending.run;
    Statement &insert = *insert_run_;
    insert.bind(1, run.session_id)
        .bind(2, run.workflow)
        .bind(3, run.preset_id)
        .bind(4, run.flag)
        .bind(5, int64_t{run.repetition})
        .bind(6, pending.inputs_text)
        .bind(7, int64_t{run.passed ? 1 : 0})
        .bind(9, run.started_at)
        .bind(10, run.wall_s);
    if (run.failed_step.empty()) {
        insert.bind_null(8);
    } else {
        insert.bind(8, run.failed_step);
    }
    if (pending.input_meta_text) {
        insert.bind(11, *pending.input_meta_text);
    } else {
        insert.bind_null(11);
    }
    bind_text_or_null(insert, 12, run.outcome);
    bind_text_or_null(insert, 13, pending.cell_share_text);
    insert.run();
    const int64_t run_id = sqlite3_last_insert_rowid(connection_.get());

    Statement &step = *insert_step_;
    for (size_t position = 0; position < run.steps.size(); ++position) {
        const auto &record = run.steps[position];
        const auto &r = record.result;
        step.bind(1, run_id)
            .bind(2, static_cast<int64_t>(position))
            .bind(3, record.name)
            .bind(4, r.value("status", std::string("XX")))
            .bind(5, int64_t{record.passed ? 1 : 0})
            .bind(6, r.value("exit_code", int64_t{0}))
            .bind(7, r.value("signal", int64_t{0}))
            .bind(8, r.value("wall_s", 0.0))
            .bind(9, r.value("cpu_user_s", 0.0))
            .bind(10, r.value("cpu_sys_s", 0.0))
            .bind(11, r.value("max_rss_kb", int64_t{0}))
            .bind(12, r.value("stdout_bytes", int64_t{0}))
            .bind(13, r.value("stderr_bytes", int64_t{0}))
            .bind(14, pending.step_texts[position]);
        bind_text_or_null(step, 15, record.outcome);
        step.run();
    }
    Statement &metric = *insert_run_metric_;
    for (const auto &[name, value] : run.metrics) {
        metric.bind(1, run_id).bind(2, name).bind(3, value).run();
    }
    write_cleanup_counters(connection_, run.cleanup_counters);
    return run_id;
}

int64_t Store::record_cell(const CellRecord &cell) {
    const auto guard = lock_committed();
    Transaction transaction(connection_);
    Statement insert(connection_.get(),
                     "INSERT INTO cells(session_id, workflow, preset_id, flag, runs, passed, "
                     "roi, finished_at, not_applicable, errored_runs) VALUES(?, ?, ?, ?, ?, ?, "
                     "?, ?, ?, ?)");
    insert.bind(1, cell.session_id)
        .bind(2, cell.workflow)
        .bind(3, cell.preset_id)
        .bind(4, cell.flag)
        .bind(5, int64_t{cell.runs})
        .bind(6, int64_t{cell.passed})
        .bind(7, cell.roi)
        .bind(8, utc_now());
    bind_text_or_null(insert, 9, cell.not_applicable);
    insert.bind(10, int64_t{cell.errored});
    insert.run();
    const int64_t cell_id = sqlite3_last_insert_rowid(connection_.get());
    Statement metric(connection_.get(),
                     "INSERT INTO metrics(cell_id, name, value) VALUES(?, ?, ?)");
    for (const auto &[name, value] : cell.metrics) {
        metric.bind(1, cell_id).bind(2, name).bind(3, value).run();
    }
    transaction.commit();
    return cell_id;
}

void Store::record_prediction(const PredictionRecord &prediction) {
    const auto guard = lock_committed();
    Statement insert(connection_.get(),
                     "INSERT INTO predictions(session_id, subject, method, value, lower, upper, "
                     "points, created_at, chosen, shown) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    insert.bind(1, prediction.session_id).bind(2, prediction.subject).bind(3, prediction.method);
    bind_optional(insert, 4, prediction.value);
    bind_optional(insert, 5, prediction.lower);
    bind_optional(insert, 6, prediction.upper);
    insert.bind(7, int64_t{prediction.points}).bind(8, utc_now());
    bind_text_or_null(insert, 9, prediction.chosen);
    insert.bind(10, int64_t{prediction.shown ? 1 : 0}).run();
}

std::vector<RoiPoint> Store::roi_points(const std::string &workflow, const std::string &preset_name,
                                        const std::string &flag) {
    const auto guard = lock_committed();
    Statement query(connection_.get(),
                    "SELECT cells.roi, cells.finished_at FROM cells JOIN presets ON presets.id = "
                    "cells.preset_id WHERE cells.workflow = ? AND presets.name = ? AND "
                    "cells.flag = ? ORDER BY cells.id");
    query.bind(1, workflow).bind(2, preset_name).bind(3, flag);
    std::vector<RoiPoint> points;
    while (query.step()) {
        points.push_back({query.column_double(0), query.column_text(1)});
    }
    return points;
}

std::vector<double> Store::roi_history(const std::string &workflow, const std::string &preset_name,
                                       const std::string &flag) {
    std::vector<double> history;
    for (const auto &point : roi_points(workflow, preset_name, flag)) {
        history.push_back(point.roi);
    }
    return history;
}

}  // namespace sbx::store
