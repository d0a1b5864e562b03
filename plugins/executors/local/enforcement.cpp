// Describing how each limit of a run was enforced, and which were held by something less.
#include "enforcement.hpp"

#include <unistd.h>

namespace sbx::local {

nlohmann::json enforcement(const support::RunLimits &limits, const RunCgroups *cgroups,
                           const DiskPlan &disk, bool cgroups_enabled) {
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

namespace {

constexpr const char kCgroupFix[] =
    "run as root, or under a delegated cgroup v2 subtree: systemd-run --user --scope -p "
    "Delegate=yes sandbox-runner ...";

nlohmann::json downgrade(const char *limit, const char *asked, const std::string &got,
                         const char *fix) {
    return {{"limit", limit}, {"asked", asked}, {"got", got}, {"fix", fix}};
}

}  // namespace

nlohmann::json downgrades(const support::RunLimits &limits, const RunCgroups *cgroups,
                          const DiskPlan &disk, const ExecutorConfig &config) {
    nlohmann::json list = nlohmann::json::array();
    if (!config.use_cgroups) {
        return list;  // `cgroups: off` is the user's explicit choice of rlimits
    }
    if (limits.memory_bytes > 0 && !(cgroups && cgroups->limits_memory())) {
        list.push_back(downgrade("memory", "a memory cgroup: the run is OOM-killed at the limit",
                                 "RLIMIT_AS: allocations fail (malloc returns NULL) instead",
                                 kCgroupFix));
    }
    if (limits.pids > 0 && !(cgroups && cgroups->limits_pids())) {
        list.push_back(downgrade("pids", "a pids cgroup: forks beyond the limit fail",
                                 ::geteuid() == 0 ? "nothing (RLIMIT_NPROC does not bind root)"
                                                  : "RLIMIT_NPROC: counts every process of "
                                                    "the user, not the run's",
                                 kCgroupFix));
    }
    if (limits.cpu_cores > 0 && !(cgroups && cgroups->limits_cpu())) {
        list.push_back(downgrade("cpu", "a CFS quota: the run gets that share of the cores",
                                 "nothing: the run gets every core", kCgroupFix));
    }
    if (limits.disk_bytes > 0 && config.disk_as_tmpfs && !disk.tmpfs) {
        list.push_back(downgrade(
            "disk", "a tmpfs workspace of that size: writes beyond it fail with ENOSPC",
            "RLIMIT_FSIZE (" + disk.tmpfs_refused +
                "): one file that large ends the run with SIGXFSZ; the total is not held",
            "run as root or where unprivileged user namespaces are enabled, or set the local "
            "executor's disk_limit: file_size to ask for this"));
    }
    return list;
}

}  // namespace sbx::local
