// What this machine offers the test's user, so tests assert that instead of literals: the
// cgroup version holding a controller (v1 here, v2 on most users' machines and in the
// kernel-matrix guest), swap, the cores a test may run on, netem, tools on PATH.
#pragma once

#include <string>
#include <vector>

namespace sbx::test {

// How a controller ("memory", "pids", "cpu", "io"/"blkio") reaches this process's user.
struct CgroupOffer {
    std::string version;  // "cgroup_v2" or "cgroup_v1", as the executors report it; empty: none
    std::string why_not;  // when version is empty: what is missing, for the test's message
};

// cgroup v2 first (the controller listed in this process's own cgroup, which this user may
// write: root, or a delegated subtree), then a writable v1 hierarchy holding it.
CgroupOffer cgroup_offer(const std::string &controller);

// Where cgroup hierarchies are mounted: cgroup v2 for "" (a hybrid machine has one beside
// v1's), else the v1 hierarchies holding `controller`.
std::vector<std::string> cgroup_mount_points(const std::string &controller = "");

// This process's cgroup below such a mount, from /proc/self/cgroup: v2's "0::" line for "",
// else the line of the v1 hierarchy holding `controller`; "" when there is none.
std::string own_cgroup_path(const std::string &controller = "");

// What a cgroup memory limit holds swap to on `version`, as the local executor names it.
std::string swap_hold(const std::string &version);

// True when /proc/swaps lists a swap area: without one a memory limit needs no swap hold.
bool has_swap();

// The cores this process may run on (its affinity mask), not the machine's total.
unsigned usable_cores();

// True when the running kernel has sch_netem: loaded, built in, or a module it can load.
bool kernel_offers_netem();

// The first of `tools` not found on PATH; empty when all are there.
std::string first_missing_tool(const std::vector<std::string> &tools);

}  // namespace sbx::test
