// Describing how each limit of a run was enforced.
#include "enforcement.hpp"

#include <unistd.h>

namespace sbx::local {

nlohmann::json enforcement(const RunLimits &limits, const RunCgroups *cgroups, const DiskPlan &disk,
                           bool cgroups_enabled) {
    const std::string no_cgroup =
        cgroups_enabled ? "none (no cgroup could be made)" : "none (cgroups: off)";
    nlohmann::json report = nlohmann::json::object();
    if (limits.timeout_ms > 0) {
        report["timeout"] = "wall_clock";
    }
    if (limits.cpu_time_s > 0) {
        report["cpu_time"] = "rlimit_cpu";
    }
    if (limits.cpu_cores > 0) {
        report["cpu"] = cgroups && cgroups->limits_cpu() ? cgroups->version() : no_cgroup;
    }
    if (limits.disk_bytes > 0) {
        report["disk"] = disk.tmpfs ? "tmpfs"
                         : disk.tmpfs_refused.empty()
                             ? "rlimit_fsize"
                             : "rlimit_fsize (no tmpfs: " + disk.tmpfs_refused + ")";
    }
    if (limits.disk_write_bps > 0) {
        report["disk_io"] = cgroups && cgroups->limits_disk_io()
                                ? std::string(cgroups->version()) + " " + disk.io_device
                            : disk.io_device.empty() ? "none (" + disk.io_refused + ")"
                                                     : no_cgroup;
    }
    if (limits.memory_bytes > 0) {
        const bool in_cgroup = cgroups && cgroups->limits_memory();
        report["memory"] = in_cgroup ? cgroups->version() : "rlimit_as";
        // RLIMIT_AS counts address space, swapped-out pages included.
        report["memory_swap"] = in_cgroup ? cgroups->memory_swap() : "rlimit_as";
    }
    if (limits.pids > 0) {
        // RLIMIT_NPROC counts every process of the user, and does not bind root at all.
        report["pids"] = cgroups && cgroups->limits_pids() ? cgroups->version()
                         : ::geteuid() == 0 ? "none (rlimit_nproc does not bind root)"
                                            : "rlimit_nproc";
    }
    return report;
}

}  // namespace sbx::local
