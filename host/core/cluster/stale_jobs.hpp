// Slurm jobs of this project whose submitting host died (found by purge-stale and
// check-resources): their comment names the host and the host process; on this host, a
// process that is gone is a dead submitter, and its array is cancelled. Jobs submitted
// from other hosts are left alone: their liveness cannot be judged from here.
#pragma once

#include <string>
#include <vector>

namespace sbx::cluster {

// "slurm job 42 (sbx-3-1, RUNNING)" for each stale job; cancelled unless `dry_run`.
std::vector<std::string> sweep_stale_jobs(bool dry_run);

}  // namespace sbx::cluster
