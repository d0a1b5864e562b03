// cgroup v1: one folder per controller (memory, pids, cpu, blkio) under
// /sys/fs/cgroup/<controller>/sandbox-runner. OOM kills come from memory.oom_control, refused
// forks from pids.events, throttling from cpu.stat.
#include <string>
#include <utility>

#include "cgroup_dir.hpp"
#include "cgroups.hpp"
#include "support/cgroup_v1_files.hpp"

namespace sbx::local {
namespace {

constexpr const char kMemoryRoot[] = "/sys/fs/cgroup/memory";
constexpr const char kPidsRoot[] = "/sys/fs/cgroup/pids";
constexpr const char kCpuRoot[] = "/sys/fs/cgroup/cpu";
constexpr const char kBlkioRoot[] = "/sys/fs/cgroup/blkio";

// One controller's cgroup of the run and its open cgroup.procs.
struct Controller {
    std::unique_ptr<CgroupDir> dir;
    UniqueFd procs;
    explicit operator bool() const { return dir != nullptr; }
};

// Makes <root>/sandbox-runner/<name> and lets `configure` write its limits; an empty
// Controller when any of that fails (the folder is then removed again).
template <class Configure>
Controller make_controller(const char *root, const std::string &name, Configure &&configure) {
    if (!writable_folder(root)) {
        return {};
    }
    Controller controller;
    controller.dir = CgroupDir::create(std::string(root) + "/sandbox-runner", name);
    if (!controller.dir || !configure(*controller.dir)) {
        return {};
    }
    controller.procs = controller.dir->open_procs();
    if (!controller.procs.valid()) {
        return {};
    }
    return controller;
}

class CgroupsV1 final : public RunCgroups {
  public:
    Controller memory;
    Controller pids;
    Controller cpu;
    Controller blkio;
    bool memsw = false;  // memory.memsw.limit_in_bytes was written

    [[nodiscard]] const char *version() const override { return "cgroup_v1"; }
    [[nodiscard]] bool limits_memory() const override { return bool(memory); }
    [[nodiscard]] bool limits_pids() const override { return bool(pids); }
    [[nodiscard]] bool limits_cpu() const override { return bool(cpu); }
    [[nodiscard]] bool limits_disk_io() const override { return bool(blkio); }
    [[nodiscard]] std::string memory_swap() const override {
        return memsw ? "memory.memsw.limit_in_bytes"
                     : "none (no memory.memsw.limit_in_bytes: swap accounting is off, boot with "
                       "swapaccount=1; the target may swap past the limit)";
    }
    [[nodiscard]] std::vector<int> join_fds() const override {
        std::vector<int> fds;
        for (const Controller *controller : {&memory, &pids, &cpu, &blkio}) {
            if (*controller) {
                fds.push_back(controller->procs.get());
            }
        }
        return fds;
    }
    [[nodiscard]] CgroupCounters counters() const override {
        CgroupCounters counters;
        if (memory) {
            const auto read = support::read_cgroup_v1_memory(memory.dir->path());
            counters.oom_kills = read.oom_kills.value_or(0);
            counters.memory_peak_bytes = read.memory_peak_bytes;
        }
        if (pids) {
            counters.pids_refused =
                support::read_cgroup_v1_pids_refused(pids.dir->path()).value_or(0);
        }
        if (cpu) {
            const auto read = support::read_cgroup_v1_throttling(cpu.dir->path());
            counters.cpu_throttled_periods = read.periods.value_or(0);
            counters.cpu_throttled_s = static_cast<double>(read.throttled_ns.value_or(0)) / 1e9;
        }
        return counters;
    }
};

}  // namespace

std::unique_ptr<RunCgroups> make_cgroups_v1(const CgroupRequest &request) {
    auto cgroups = std::make_unique<CgroupsV1>();
    if (request.memory_bytes > 0) {
        const std::string bytes = std::to_string(request.memory_bytes);
        cgroups->memory = make_controller(kMemoryRoot, request.name, [&](const CgroupDir &dir) {
            // limit before memsw: memsw must never be below limit. memsw (absent without swap
            // accounting) keeps the target from swapping its way past the limit.
            if (!dir.write("memory.limit_in_bytes", bytes)) {
                return false;
            }
            if (dir.has("memory.memsw.limit_in_bytes")) {
                cgroups->memsw = dir.write("memory.memsw.limit_in_bytes", bytes);
                return cgroups->memsw;
            }
            return true;
        });
    }
    if (request.pids > 0) {
        cgroups->pids = make_controller(kPidsRoot, request.name, [&](const CgroupDir &dir) {
            return dir.write("pids.max", std::to_string(request.pids));
        });
    }
    if (request.cpu_cores > 0) {
        cgroups->cpu = make_controller(kCpuRoot, request.name, [&](const CgroupDir &dir) {
            return dir.write("cpu.cfs_period_us", std::to_string(kCpuPeriodUs)) &&
                   dir.write("cpu.cfs_quota_us", std::to_string(cpu_quota_us(request.cpu_cores)));
        });
    }
    if (request.wants_io()) {
        cgroups->blkio = make_controller(kBlkioRoot, request.name, [&](const CgroupDir &dir) {
            return dir.write("blkio.throttle.write_bps_device",
                             request.io_device + " " + std::to_string(request.disk_write_bps));
        });
    }
    if (!cgroups->memory && !cgroups->pids && !cgroups->cpu && !cgroups->blkio) {
        return nullptr;
    }
    return cgroups;
}

}  // namespace sbx::local
