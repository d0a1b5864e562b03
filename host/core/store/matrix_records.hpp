// What scenario matrices and trajectories keep in metrics.db beyond runs and cells: the
// per-scenario scores, trajectory stages, synergy values, and the session bookkeeping of
// `--recover` (store/session_progress.hpp reads how far a session got).
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "store/store.hpp"

namespace sbx::store {

// Deletes the runs (with their steps and metrics) of `session_id` that belong to no
// finished cell and carry no cell share: runs recorded by a host older than schema 7,
// which --recover cannot fold into their cell and so runs again. Returns how many.
int discard_unfinished_runs(Store &store, int64_t session_id);

struct ResumableSession {
    int64_t id = 0;
    std::string status;  // running (the host was killed), interrupted or failed
    std::optional<int64_t> seed;
    nlohmann::json options;  // as given to begin_session
};

// The newest session of `command` that did not finish; nullopt when there is none.
std::optional<ResumableSession> latest_unfinished_session(Store &store, const std::string &command);
// The status of session `session_id` (running, finished, interrupted, failed, crashed), and
// its command; none when there is no such session.
std::optional<std::pair<std::string, std::string>> session_status(Store &store, int64_t session_id);
// Marks a session as running again (a recovered matrix continues in the same session).
void reopen_session(Store &store, int64_t session_id);

struct ScenarioScoreRow {
    std::string scenario;
    double roi_on = 0, roi_off = 0, roi_delta = 0;
    double raroi_on = 0, raroi_off = 0, raroi_delta = 0;
    bool failed = false;
    bool worst = false;
    nlohmann::json details = nlohmann::json::object();  // target/metrics deltas, reasons
    std::string not_applicable;  // why the scenario's faults never reached the target, or ""
    std::string inconclusive;    // why errors of the setup left no verdict, or ""
};
void record_scenario_scores(Store &store, int64_t session_id, const std::string &workflow,
                            const std::vector<ScenarioScoreRow> &rows);

struct TrajectoryRow {
    std::string stage;
    double roi = 0, degradation = 0, resilience = 0, stability = 0;
};
void record_trajectory(Store &store, int64_t session_id, const std::string &workflow,
                       const std::vector<TrajectoryRow> &rows);

// synergy_roi and synergy_<metric> of `subject` (a workflow set or "sections") per scenario.
void record_synergy(Store &store, int64_t session_id, const std::string &subject,
                    const std::string &scenario, const std::map<std::string, double> &values);

}  // namespace sbx::store
