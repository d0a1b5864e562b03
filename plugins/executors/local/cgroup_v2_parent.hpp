// Where a run's cgroup v2 folders go: /sys/fs/cgroup/sandbox-runner for root, else a
// subtree delegated to the caller (a systemd scope with Delegate=yes), which the host
// prepares once per process.
#pragma once

#include <optional>
#include <string>

namespace sbx::local {

struct CgroupV2Parent {
    std::string path;         // folder the run cgroups are made in
    std::string controllers;  // what it offers its children (cgroup.controllers)
    bool delegated = false;   // a subtree of the caller's, not the machine's root
};

// The parent for this process's runs, or nullopt (with `why`) when cgroup v2 holds nothing
// for us: a v1 or hybrid machine, or no root and no delegated subtree.
std::optional<CgroupV2Parent> cgroup_v2_parent(std::string &why);

}  // namespace sbx::local
