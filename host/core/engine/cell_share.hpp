// A run's cell share: what it contributes to its cell beyond `passed` and its metrics,
// stored with the run so that --recover can fold a committed run into a cell it did not
// finish exactly as the run's own host would have.
#pragma once

#include <nlohmann/json.hpp>

#include "engine/cell_work.hpp"
#include "store/session_progress.hpp"

namespace sbx::engine {

// {"executions", "passed_executions", "failures", "active_injectors", "aggregations",
//  "collector_metrics", "harness_error", "failure_detail", "faults_applied", "faults_missed",
//  "faults_unmet"}.
nlohmann::json cell_share_of(const RunResult &result);

// The run's RunResult as run_one left it. Throws EnvironmentError when the stored share is
// not one the host wrote (a damaged database).
RunResult run_result_from(const store::CommittedRun &run);

}  // namespace sbx::engine
