// Deciding how the disk limits of a run are held.
#include "disk_plan.hpp"

#include <sbx/plugin.hpp>

#include <atomic>

#include "block_device.hpp"

namespace sbx::local {

DiskPlan plan_disk(const support::RunLimits &limits, const ExecutorConfig &config,
                   const std::string &workspace) {
    DiskPlan plan;
    if (limits.disk_bytes > 0 && config.disk_as_tmpfs) {
        plan.tmpfs = WorkspaceTmpfs::create(limits.disk_bytes, plan.tmpfs_refused);
        static std::atomic<bool> warned{false};
        if (!plan.tmpfs && !warned.exchange(true)) {
            host::log(SBX_LOG_WARN, "cannot make a tmpfs workspace (" + plan.tmpfs_refused +
                                        "); limits.disk_bytes falls back to RLIMIT_FSIZE, the "
                                        "largest file, for this and later runs that cannot");
        }
    }
    if (limits.disk_write_bps > 0) {
        if (plan.tmpfs) {
            plan.io_refused = "the workspace is a tmpfs: no block device backs it";
        } else if (const auto device = whole_disk_of(workspace, plan.io_refused)) {
            plan.io_device = *device;
        }
    }
    return plan;
}

}  // namespace sbx::local
