// cgroup v2: one folder per run holding memory.max, pids.max, cpu.max and io.max, under
// /sys/fs/cgroup/sandbox-runner for root or the caller's delegated subtree
// (cgroup_v2_parent.*). Proven in the kernel-matrix guest, where v2 has its controllers.
#include <string>

#include "cgroup_dir.hpp"
#include "cgroup_v2_parent.hpp"
#include "cgroups.hpp"
#include "support/cgroup_files.hpp"
#include "support/cgroup_v2_files.hpp"

namespace sbx::local {
namespace {

class CgroupsV2 final : public RunCgroups {
  public:
    std::unique_ptr<CgroupDir> dir;
    UniqueFd procs;
    UniqueFd folder;
    bool memory = false;
    bool swap = false;  // memory.swap.max was set to 0
    bool pids = false;
    bool cpu = false;
    bool io = false;

    [[nodiscard]] const char *version() const override { return "cgroup_v2"; }
    [[nodiscard]] bool limits_memory() const override { return memory; }
    [[nodiscard]] bool limits_pids() const override { return pids; }
    [[nodiscard]] bool limits_cpu() const override { return cpu; }
    [[nodiscard]] bool limits_disk_io() const override { return io; }
    [[nodiscard]] std::string memory_swap() const override {
        return swap ? "memory.swap.max=0"
                    : "none (no memory.swap.max: swap accounting is off; the target may swap "
                      "past the limit)";
    }
    [[nodiscard]] std::vector<int> join_fds() const override { return {procs.get()}; }
    [[nodiscard]] int folder_fd() const override { return folder.get(); }
    [[nodiscard]] CgroupCounters counters() const override {
        const support::CgroupV2Counters read = support::read_cgroup_v2_counters(dir->path());
        CgroupCounters counters;
        counters.oom_kills = read.oom_kills.value_or(0);
        counters.pids_refused = read.pids_refused.value_or(0);
        counters.cpu_throttled_periods = read.cpu_throttled_periods.value_or(0);
        counters.cpu_throttled_s = static_cast<double>(read.cpu_throttled_usec.value_or(0)) / 1e6;
        counters.memory_peak_bytes = read.memory_peak_bytes;
        return counters;
    }
};

}  // namespace

std::unique_ptr<RunCgroups> make_cgroups_v2(const CgroupRequest &request) {
    std::string why;
    const std::optional<CgroupV2Parent> parent = cgroup_v2_parent(why);
    if (!parent) {
        return nullptr;  // v1 or hybrid machine, or nothing delegated to us
    }
    // What the parent hands to its children (its subtree_control).
    const std::string &controllers = parent->controllers;
    const bool want_memory = request.memory_bytes > 0 && support::has_word(controllers, "memory");
    const bool want_pids = request.pids > 0 && support::has_word(controllers, "pids");
    const bool want_cpu = request.cpu_cores > 0 && support::has_word(controllers, "cpu");
    const bool want_io = request.wants_io() && support::has_word(controllers, "io");
    if (!want_memory && !want_pids && !want_cpu && !want_io) {
        return nullptr;
    }
    auto cgroups = std::make_unique<CgroupsV2>();
    cgroups->dir = CgroupDir::create(parent->path, request.name);
    if (!cgroups->dir) {
        return nullptr;
    }
    const std::string bytes = std::to_string(request.memory_bytes);
    cgroups->swap = want_memory && cgroups->dir->has("memory.swap.max") &&
                    cgroups->dir->write("memory.swap.max", "0");
    cgroups->memory = want_memory && cgroups->dir->write("memory.max", bytes) &&
                      (!cgroups->dir->has("memory.swap.max") || cgroups->swap);
    cgroups->pids = want_pids && cgroups->dir->write("pids.max", std::to_string(request.pids));
    const std::string cpu_max =
        std::to_string(cpu_quota_us(request.cpu_cores)) + " " + std::to_string(kCpuPeriodUs);
    cgroups->cpu = want_cpu && cgroups->dir->write("cpu.max", cpu_max);
    const std::string io_max =
        request.io_device + " wbps=" + std::to_string(request.disk_write_bps);
    cgroups->io = want_io && cgroups->dir->write("io.max", io_max);
    cgroups->procs = cgroups->dir->open_procs();
    cgroups->folder = cgroups->dir->open_folder();  // -1: the child joins through procs
    if ((!cgroups->memory && !cgroups->pids && !cgroups->cpu && !cgroups->io) ||
        !cgroups->procs.valid()) {
        return nullptr;
    }
    return cgroups;
}

}  // namespace sbx::local
