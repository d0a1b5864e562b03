// The results database (<data_dir>/metrics.db, SQLite in WAL mode). One writer; every
// run is committed before record_run returns, so a killed host loses at most the runs in
// flight.
#pragma once

#include <condition_variable>
#include <filesystem>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
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

    // `options` (a JSON object) is what a later `--recover` needs to rebuild the command.
    int64_t begin_session(const std::string &command, const std::string &settings_source,
                          std::optional<int64_t> seed,
                          const nlohmann::json &options = nlohmann::json());
    void finish_session(int64_t session_id, const std::string &status);
    void record_plugins(int64_t session_id, const std::vector<PluginRecord> &plugins);
    // Returns the id of the preset with this canonical body, inserting it when new.
    int64_t preset_id(const std::string &name, const nlohmann::json &body);
    // The run, its steps, its metrics and its cleanup counters, committed when this returns.
    // A group commit: runs that workers finish while a commit is under way wait for it and
    // are then written together, in one transaction, by one of them (a run that fails to be
    // written fails alone). One transaction per run made the store's lock the matrix's
    // bottleneck: with 16 workers the workers waited for it longer than for their targets.
    int64_t record_run(const RunRecord &run);
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
    [[nodiscard]] Connection &connection() { return connection_; }
    // Runs `work(connection)` under the store's lock: how the query and record helpers
    // in other files of store/ share the connection safely.
    template <class Work>
    auto locked(Work &&work) {
        std::lock_guard<std::mutex> guard(mutex_);
        return work(connection_);
    }

  private:
    struct PendingRun;
    // Writes `batch` under the store's lock: one transaction, or each run in its own when
    // that fails. Sets each run's id or error; never throws.
    void write_runs(const std::vector<PendingRun *> &batch);
    int64_t insert_run_rows(const PendingRun &pending);

    std::mutex mutex_;
    Connection connection_;
    // The group commit's queue: runs waiting for a commit, and whether one is under way.
    std::mutex queue_mutex_;
    std::condition_variable committed_;
    std::vector<PendingRun *> queue_;
    bool writing_ = false;
    // Prepared once: a run is recorded hundreds of times per matrix, and parsing the SQL
    // each time was a visible share of the host's per-run cost.
    std::optional<Statement> insert_run_, insert_step_, insert_run_metric_;
};

// Current time as ISO 8601 UTC with milliseconds.
std::string utc_now();

}  // namespace sbx::store
