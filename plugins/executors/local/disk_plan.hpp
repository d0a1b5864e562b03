// How a run's disk limits are held: limits.disk_bytes as a tmpfs workspace of that size (or
// why it falls back to RLIMIT_FSIZE), and limits.disk_write_bps on the workspace's disk (or
// why it cannot be).
#pragma once

#include <memory>
#include <string>

#include "config.hpp"
#include "run_spec.hpp"
#include "workspace_tmpfs.hpp"

namespace sbx::local {

struct DiskPlan {
    std::unique_ptr<WorkspaceTmpfs> tmpfs;  // null: no disk_bytes, or the fallback
    std::string tmpfs_refused;              // why disk_bytes fell back to RLIMIT_FSIZE
    std::string io_device;                  // "MAJ:MIN" to throttle, or ""
    std::string io_refused;                 // why disk_write_bps is not enforced
};

// Makes the tmpfs (when disk_bytes is set and the configuration allows it) and finds the
// disk behind `workspace` (when disk_write_bps is set and the workspace is no tmpfs).
// A host that cannot make a tmpfs logs it once and falls back, run after run.
DiskPlan plan_disk(const support::RunLimits &limits, const ExecutorConfig &config,
                   const std::string &workspace);

}  // namespace sbx::local
