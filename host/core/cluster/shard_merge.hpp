// Merging a worker's store (its shard's metrics.db) into the session of the submitting
// host: each run once, whatever the number of merges. A run is the same run when its
// (workflow, preset body, flag, repetition) are; one already in the session is skipped,
// so a shard merged twice, or a run made twice (a task lost after committing it, then
// resubmitted), still counts once.
#pragma once

#include <cstdint>
#include <filesystem>

#include "store/store.hpp"

namespace sbx::cluster {

struct MergeCount {
    int merged = 0;   // runs added to the session
    int skipped = 0;  // runs the session held already
    int passed = 0;   // of the merged, those that passed
};

// Adds the runs of `shard_db` (with their steps and metrics) to `session` in `store`, and
// the worker's cleanup counters that no earlier merge took, in one transaction. A shard store that
// does not exist yet, or holds no tables yet, merges nothing. Throws EnvironmentError naming the
// file when it cannot be read.
MergeCount merge_shard(store::Store &store, int64_t session, const std::filesystem::path &shard_db);

}  // namespace sbx::cluster
