// Runs of a matrix made somewhere else (a Slurm cluster: cluster/slurm_runs.hpp) and
// merged back into the session's store, and the other half: a worker that makes its
// share of a matrix planned elsewhere. The matrix itself is planned the same way on
// both sides (same settings, plans and seed), so a run is named by its place in the
// plan: the index of its cell and its repetition.
#pragma once

#include <cstddef>
#include <functional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "engine/run_observer.hpp"

namespace sbx::engine {

// (cell index in plan order, repetition).
using PlannedRun = std::pair<std::size_t, int>;

// A matrix's runs made by others: run() returns once every run it was given is committed
// to the session's store, or it gave up on some (the matrix then says which are missing).
class RemoteRuns {
  public:
    virtual ~RemoteRuns() = default;
    // Before the matrix looks at what its session holds: what finished elsewhere while
    // nobody was merging (the submitting host died) is merged first.
    virtual void catch_up() = 0;
    // Before run(): the digest of the matrix as planned here, which each worker's own
    // plan must equal (ShardAssignment::plan_digest).
    virtual void plan(const std::string &digest) = 0;
    // Which of the given runs the session does not hold yet.
    using MissingRuns = std::function<std::vector<PlannedRun>(const std::vector<PlannedRun> &)>;
    // `runs` in plan order; `observer` (may be null) hears of each run merged; `missing`
    // tells what a lost task left undone.
    virtual void run(const std::vector<PlannedRun> &runs, RunObserver *observer,
                     const MissingRuns &missing) = 0;
};

// A worker's share: only these runs are made, and the matrix ends with ShardFinished
// instead of finishing its cells (the submitting host finishes them).
struct ShardAssignment {
    std::set<PlannedRun> runs;
    // The submitting host's plan digest: a worker planning anything else (the settings
    // changed since submission) refuses to run. "" skips the check.
    std::string plan_digest;
};

class ShardFinished : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

}  // namespace sbx::engine
