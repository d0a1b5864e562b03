// The result's `enforcement` object: how each requested limit was held ("cgroup_v1", "tmpfs",
// "rlimit_fsize", ... or "none (why)"), so a reader of the result knows what it was worth.
#pragma once

#include <nlohmann/json.hpp>

#include "cgroups.hpp"
#include "disk_plan.hpp"
#include "run_spec.hpp"

namespace sbx::local {

// `cgroups` may be null (none requested, none could be made, or `cgroups: off`).
nlohmann::json enforcement(const support::RunLimits &limits, const RunCgroups *cgroups,
                           const DiskPlan &disk, bool cgroups_enabled);

// The result's `downgraded` list: each limit held by something that changes how a run ends
// ({limit, asked, got, fix}): memory by RLIMIT_AS (allocations fail instead of an OOM kill),
// pids by RLIMIT_NPROC or nothing, the CPU share or the write throttle by nothing, the
// disk by RLIMIT_FSIZE (SIGXFSZ on one big file instead of ENOSPC). The host refuses a
// matrix with any, unless the user allows downgrades.
nlohmann::json downgrades(const support::RunLimits &limits, const RunCgroups *cgroups,
                          const DiskPlan &disk, const ExecutorConfig &config);

}  // namespace sbx::local
