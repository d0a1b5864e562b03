// Finding (and once per process, preparing) the cgroup v2 folder that runs are made in.
//
// Without root, cgroup v2 lets a user manage a subtree that was delegated to them: systemd
// does it for `systemd-run --user --scope -p Delegate=yes CMD`, which puts CMD in a scope
// folder the user owns. The host is then a process of that folder, and v2 forbids a folder
// with processes from handing controllers to children ("no internal processes"). So the
// host first moves the scope's processes (itself, and whatever started it there) into a
// leaf (<scope>/host), then enables the controllers for children in <scope> and
// <scope>/sandbox-runner, where the runs go.
#include "cgroup_v2_parent.hpp"

#include <unistd.h>

#include <mutex>
#include <vector>

#include "cgroup_dir.hpp"
#include "support/cgroup_files.hpp"
#include "support/cgroup_v2_files.hpp"

namespace sbx::local {
namespace {

constexpr const char *kRoot = support::kCgroupRoot;

// "/user.slice/.../x.scope" from the "0::" line of /proc/self/cgroup, or "".
std::string own_cgroup() {
    return support::unified_cgroup_path(support::cgroup_memberships_of("self")).value_or("");
}

// Enables every controller of kWanted that `folder` offers for its children, one by one:
// a single write fails whole when one controller is missing.
void enable_for_children(const std::string &folder) {
    const std::string offered = support::offered_controllers(folder).value_or("");
    for (const char *controller : {"memory", "pids", "cpu", "io"}) {
        if (support::has_word(offered, controller)) {
            CgroupDir::write_file(folder + "/cgroup.subtree_control",
                                  std::string("+") + controller);
        }
    }
}

// Moves every process of `from` into `to` (this host, and what else the delegated scope
// holds, e.g. the shell or test runner that started it): a folder that hands controllers
// to its children may hold no process itself. Processes that end meanwhile are fine.
bool move_members(const std::string &from, const std::string &to) {
    for (int pass = 0; pass < 8; ++pass) {
        const auto members = support::cgroup_members(from).value_or(std::vector<pid_t>{});
        if (members.empty()) {
            return true;
        }
        for (const pid_t pid : members) {
            CgroupDir::write_file(to + "/cgroup.procs", std::to_string(pid));
        }
    }
    const auto left = support::cgroup_members(from);
    return left && left->empty();
}

std::optional<CgroupV2Parent> find_parent(std::string &why) {
    if (!support::cgroup_v2_mounted(kRoot)) {
        why = "no cgroup v2 hierarchy at /sys/fs/cgroup";
        return std::nullopt;
    }
    CgroupV2Parent parent;
    if (writable_folder(kRoot)) {
        // The machine's root: exempt from the no-internal-processes rule.
        enable_for_children(kRoot);
        parent.path = std::string(kRoot) + "/sandbox-runner";
    } else {
        const std::string own = own_cgroup();
        const std::string scope = std::string(kRoot) + own;
        if (own.empty() || own == "/" || !writable_folder(scope) ||
            ::access((scope + "/cgroup.subtree_control").c_str(), W_OK) != 0) {
            why = "cgroup " + (own.empty() ? std::string("?") : own) +
                  " is not delegated to this user; run under `systemd-run --user --scope -p "
                  "Delegate=yes sandbox-runner ...`";
            return std::nullopt;
        }
        const std::string leaf = scope + "/host";
        if (!CgroupDir::make_folder(leaf) || !move_members(scope, leaf)) {
            why = "cannot move the processes of " + scope + " into " + leaf;
            return std::nullopt;
        }
        enable_for_children(scope);
        parent.path = scope + "/sandbox-runner";
        parent.delegated = true;
    }
    if (!CgroupDir::make_folder(parent.path)) {
        why = "cannot create " + parent.path;
        return std::nullopt;
    }
    enable_for_children(parent.path);
    parent.controllers = support::enabled_controllers(parent.path);
    return parent;
}

}  // namespace

std::optional<CgroupV2Parent> cgroup_v2_parent(std::string &why) {
    // Once per process: moving the host is not something to repeat per run.
    static std::once_flag once;
    static std::optional<CgroupV2Parent> parent;
    static std::string reason;
    std::call_once(once, [] { parent = find_parent(reason); });
    why = reason;
    return parent;
}

}  // namespace sbx::local
