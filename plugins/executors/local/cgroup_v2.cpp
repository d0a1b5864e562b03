// cgroup v2: one folder under /sys/fs/cgroup/sandbox-runner holding memory.max and pids.max.
// Untestable on the build machines (v2 has no controllers there), so kept small and obvious.
#include <sstream>
#include <string>

#include "cgroup_dir.hpp"
#include "cgroups.hpp"

namespace sbx::local {
namespace {

constexpr const char kRoot[] = "/sys/fs/cgroup";

class CgroupsV2 final : public RunCgroups {
  public:
    std::unique_ptr<CgroupDir> dir;
    UniqueFd procs;
    bool memory = false;
    bool pids = false;

    [[nodiscard]] const char *version() const override { return "cgroup_v2"; }
    [[nodiscard]] bool limits_memory() const override { return memory; }
    [[nodiscard]] bool limits_pids() const override { return pids; }
    [[nodiscard]] std::vector<int> join_fds() const override { return {procs.get()}; }
    [[nodiscard]] CgroupCounters counters() const override {
        CgroupCounters counters;
        counters.oom_kills = keyed_counter(dir->read("memory.events").value_or(""), "oom_kill");
        counters.pids_refused = keyed_counter(dir->read("pids.events").value_or(""), "max");
        const auto peak = dir->read("memory.peak");  // Linux 5.19+
        if (peak) {
            try {
                counters.memory_peak_bytes = std::stoull(*peak);
            } catch (const std::exception &) {
            }
        }
        return counters;
    }
};

// True when `controller` is one of the words of cgroup.controllers.
bool offers(const std::string &controllers, const std::string &controller) {
    std::istringstream words(controllers);
    std::string word;
    while (words >> word) {
        if (word == controller) {
            return true;
        }
    }
    return false;
}

}  // namespace

std::unique_ptr<RunCgroups> make_cgroups_v2(const CgroupRequest &request) {
    const std::optional<std::string> controllers =
        CgroupDir::read_file(std::string(kRoot) + "/cgroup.controllers");
    if (!controllers || !writable_folder(kRoot)) {
        return nullptr;  // not a v2 host (v1 or hybrid layout)
    }
    const bool want_memory = request.memory_bytes > 0 && offers(*controllers, "memory");
    const bool want_pids = request.pids > 0 && offers(*controllers, "pids");
    if (!want_memory && !want_pids) {
        return nullptr;
    }
    // Controllers reach a cgroup only when every ancestor enables them for its children.
    const std::string enable =
        std::string(want_memory ? "+memory " : "") + (want_pids ? "+pids" : "");
    const std::string parent = std::string(kRoot) + "/sandbox-runner";
    CgroupDir::write_file(std::string(kRoot) + "/cgroup.subtree_control", enable);
    if (!CgroupDir::make_folder(parent)) {
        return nullptr;
    }
    CgroupDir::write_file(parent + "/cgroup.subtree_control", enable);
    auto cgroups = std::make_unique<CgroupsV2>();
    cgroups->dir = CgroupDir::create(parent, request.name);
    if (!cgroups->dir) {
        return nullptr;
    }
    const std::string bytes = std::to_string(request.memory_bytes);
    cgroups->memory =
        want_memory && cgroups->dir->write("memory.max", bytes) &&
        (!cgroups->dir->has("memory.swap.max") || cgroups->dir->write("memory.swap.max", "0"));
    cgroups->pids = want_pids && cgroups->dir->write("pids.max", std::to_string(request.pids));
    cgroups->procs = cgroups->dir->open_procs();
    if ((!cgroups->memory && !cgroups->pids) || !cgroups->procs.valid()) {
        return nullptr;
    }
    return cgroups;
}

}  // namespace sbx::local
