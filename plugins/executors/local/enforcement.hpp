// The result's `enforcement` object: how each requested limit was held ("cgroup_v1", "tmpfs",
// "rlimit_fsize", ... or "none (why)"), so a reader of the result knows what it was worth.
#pragma once

#include <nlohmann/json.hpp>

#include "cgroups.hpp"
#include "disk_plan.hpp"
#include "run_spec.hpp"

namespace sbx::local {

// `cgroups` may be null (none requested, none could be made, or `cgroups: off`).
nlohmann::json enforcement(const RunLimits &limits, const RunCgroups *cgroups, const DiskPlan &disk,
                           bool cgroups_enabled);

}  // namespace sbx::local
