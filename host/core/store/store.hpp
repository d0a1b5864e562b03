// The results database (<data_dir>/metrics.db, SQLite in WAL mode). One writer. A run is
// written when record_run returns (or by the store's committer thread, record_run_later)
// and committed within 20 ms by the committer, off the worker's path; a killed host loses at most
// the runs in flight and those of the last 20 ms, never part of a run, and `--recover` makes them
// again.
#pragma once

#include <condition_variable>
#include <exception>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "store/sqlite_handle.hpp"

namespace sbx::store {

struct PluginRecord {
    std::string id, kind, version, abi, path;
};

struct StepRecord {
    std::string name;
    bool passed = false;
    nlohmann::json result;    // the executor's result object
    std::string result_text;  // its JSON text when already at hand ("" = serialize `result`)
    std::string outcome;      // accepted, rejected, crashed, hung or failed
};

struct RunRecord {
    int64_t session_id = 0;
    std::string workflow;
    int64_t preset_id = 0;
    std::string flag = "on";  // "on" | "off" (the counterfactual)
    int repetition = 0;
    nlohmann::json inputs = nlohmann::json::object();
    // What the stub strategy said it did to this set (its `meta` entry), null when nothing.
    nlohmann::json input_meta;
    bool passed = false;
    std::string outcome;  // the worst of its steps' outcome classes
    std::string failed_step;
    std::string started_at;  // ISO 8601 UTC
    double wall_s = 0;
    std::vector<StepRecord> steps;
    std::map<std::string, double> metrics;
    // The steps' `cleanup` reports, merged: added to the cleanup_counters table with the run.
    std::map<std::string, double> cleanup_counters;
    // What the run contributes to its cell beyond `passed` and `metrics` (CONCURRENCY_LEVEL
    // counts, failure reasons, active injectors, declared aggregations); null for none.
    nlohmann::json cell_share;
};

struct CellRecord {
    int64_t session_id = 0;
    std::string workflow;
    int64_t preset_id = 0;
    std::string flag = "on";
    int runs = 0;
    int passed = 0;
    double roi = 0;
    std::map<std::string, double> metrics;
    // Why the preset's faults cannot reach this workflow's target; "" when they can.
    std::string not_applicable;
    // Runs that were errors of the setup, counted in `runs` but not in `passed` or `roi`.
    int errored = 0;
};

struct PredictionRecord {
    int64_t session_id = 0;
    std::string subject;  // "roi:<workflow>:<preset>:<on|off>", e.g. "roi:demo-kv:normal:on"
    std::string method;
    std::optional<double> value, lower, upper;
    int points = 0;      // the length of the series it forecast the next point of
    std::string chosen;  // the method a choosing predictor (`auto`) used; "" for none
    // False for the predictors compared beside the shown one (settings' `predictors:`).
    bool shown = true;
};

// Safe to share between the worker threads of a matrix: every call takes the store's
// lock, so the one connection is the one writer and transactions never interleave.
// One point of a cell's ROI history.
struct RoiPoint {
    double roi = 0;
    std::string finished_at;  // cells.finished_at
};

class Store {
  public:
    // Opens (creating directories and file) and migrates. Throws EnvironmentError.
    explicit Store(const std::filesystem::path &db_path);
    // Commits what is written and ends the committer.
    ~Store();
    Store(const Store &) = delete;
    Store &operator=(const Store &) = delete;
    Store(Store &&) = delete;
    Store &operator=(Store &&) = delete;

    // `options` (a JSON object) is what a later `--recover` needs to rebuild the command.
    int64_t begin_session(const std::string &command, const std::string &settings_source,
                          std::optional<int64_t> seed,
                          const nlohmann::json &options = nlohmann::json());
    void finish_session(int64_t session_id, const std::string &status);
    // The sessions opening this store found crashed (their host gone) and marked so.
    [[nodiscard]] const std::vector<int64_t> &crashed_on_open() const { return crashed_on_open_; }
    void record_plugins(int64_t session_id, const std::vector<PluginRecord> &plugins);
    // Returns the id of the preset with this canonical body, inserting it when new.
    int64_t preset_id(const std::string &name, const nlohmann::json &body);
    // The run, its steps, its metrics and its cleanup counters, written (all or nothing)
    // when this returns; committed by the committer thread within 20 ms, with the runs
    // written meanwhile. A commit per run on the worker's path was a fifth of the host's
    // per-run cost at one worker, and made the store's lock the bottleneck at sixteen. A run
    // that cannot be written fails alone; a commit that fails stops every later call to the
    // store with the error (those runs are lost, and `--recover` makes them again).
    int64_t record_run(const RunRecord &run);
    // The same, written by the committer thread too: the caller only queues the run (its
    // inserts cost a worker about 0.1 ms a run) and gets a ticket. written_id(ticket) gives
    // the run's id once it is written, or throws the error that kept it out; every call to
    // the store writes the queued runs first, so a cell never precedes its runs.
    uint64_t record_run_later(RunRecord run);
    int64_t written_id(uint64_t ticket);
    int64_t record_cell(const CellRecord &cell);
    void record_prediction(const PredictionRecord &prediction);
    // Every finished cell of (workflow, preset name, flag), oldest first: its ROI and when
    // it finished.
    std::vector<RoiPoint> roi_points(const std::string &workflow, const std::string &preset_name,
                                     const std::string &flag);
    // Their ROIs alone.
    std::vector<double> roi_history(const std::string &workflow, const std::string &preset_name,
                                    const std::string &flag);
    [[nodiscard]] int schema_version();
    // The connection, with what is written committed; for a single-threaded caller (a
    // command with no run in flight, a test).
    [[nodiscard]] Connection &connection() {
        (void)lock_committed();
        return connection_;
    }
    // Runs `work(connection)` under the store's lock, what is written committed first: how
    // the query and record helpers in other files of store/ share the connection safely.
    template <class Work>
    auto locked(Work &&work) {
        const std::unique_lock<std::mutex> guard = lock_committed();
        return work(connection_);
    }

  private:
    struct PendingRun;
    struct QueuedRun;
    std::vector<int64_t> crashed_on_open_;
    // The store's lock, taken with no transaction open: written runs are committed first.
    // Throws the error of a failed commit.
    std::unique_lock<std::mutex> lock_committed();
    // Commits the open transaction; the lock is held. Keeps the error when it fails.
    void commit_open();
    // Writes the queued runs (record_run_later); the lock is held.
    void write_queued();
    // Writes one run in the open transaction, all or nothing; the lock is held.
    int64_t write_run(const PendingRun &pending);
    void commit_loop();  // the committer thread
    int64_t insert_run_rows(const PendingRun &pending);

    std::mutex mutex_;
    Connection connection_;
    // Runs written and not yet committed are in an open transaction; the committer commits
    // it when woken. A failed commit's error is thrown by every later call.
    bool open_ = false;
    bool stopping_ = false;
    std::exception_ptr commit_error_;
    std::condition_variable written_;
    // Runs queued by record_run_later, under their own lock: a worker queues without
    // waiting for a write or a commit under way. Then the outcome of each ticket (an id, or
    // the error that kept the run out) until written_id takes it.
    std::mutex queue_mutex_;
    std::vector<std::unique_ptr<QueuedRun>> queue_;
    uint64_t next_ticket_ = 1;
    std::map<uint64_t, int64_t> written_ids_;
    std::map<uint64_t, std::exception_ptr> write_errors_;
    // Prepared once: a run is recorded hundreds of times per matrix, and parsing the SQL
    // each time was a visible share of the host's per-run cost.
    std::optional<Statement> insert_run_, insert_step_, insert_run_metric_;
    std::optional<Statement> savepoint_, release_, rollback_to_;  // one run's all-or-nothing
    std::thread committer_;  // last: it starts when everything above is made
};

// Current time as ISO 8601 UTC with milliseconds.
std::string utc_now();

}  // namespace sbx::store
