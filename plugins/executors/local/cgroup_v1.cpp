// cgroup v1: a folder under /sys/fs/cgroup/memory and one under /sys/fs/cgroup/pids, each in
// a sandbox-runner parent. OOM kills come from memory.oom_control, refused forks from pids.events.
#include <string>
#include <utility>

#include "cgroup_dir.hpp"
#include "cgroups.hpp"

namespace sbx::local {
namespace {

constexpr const char kMemoryRoot[] = "/sys/fs/cgroup/memory";
constexpr const char kPidsRoot[] = "/sys/fs/cgroup/pids";

class CgroupsV1 final : public RunCgroups {
  public:
    std::unique_ptr<CgroupDir> memory;
    std::unique_ptr<CgroupDir> pids;
    UniqueFd memory_procs;
    UniqueFd pids_procs;

    [[nodiscard]] const char *version() const override { return "cgroup_v1"; }
    [[nodiscard]] bool limits_memory() const override { return memory != nullptr; }
    [[nodiscard]] bool limits_pids() const override { return pids != nullptr; }
    [[nodiscard]] std::vector<int> join_fds() const override {
        std::vector<int> fds;
        if (memory) {
            fds.push_back(memory_procs.get());
        }
        if (pids) {
            fds.push_back(pids_procs.get());
        }
        return fds;
    }
    [[nodiscard]] CgroupCounters counters() const override {
        CgroupCounters counters;
        if (memory) {
            // oom_kill appeared in 4.13; failcnt alone would also count reclaim that worked.
            counters.oom_kills =
                keyed_counter(memory->read("memory.oom_control").value_or(""), "oom_kill");
            const auto peak = memory->read("memory.max_usage_in_bytes");
            if (peak) {
                try {
                    counters.memory_peak_bytes = std::stoull(*peak);
                } catch (const std::exception &) {
                }
            }
        }
        if (pids) {
            counters.pids_refused = keyed_counter(pids->read("pids.events").value_or(""), "max");
        }
        return counters;
    }
};

std::unique_ptr<CgroupDir> make_memory(const CgroupRequest &request, UniqueFd &procs) {
    if (request.memory_bytes == 0 || !writable_folder(kMemoryRoot)) {
        return nullptr;
    }
    auto dir = CgroupDir::create(std::string(kMemoryRoot) + "/sandbox-runner", request.name);
    if (!dir) {
        return nullptr;
    }
    const std::string bytes = std::to_string(request.memory_bytes);
    // limit before memsw: memsw must never be below limit. memsw (absent without swap
    // accounting) keeps the target from swapping its way past the limit.
    if (!dir->write("memory.limit_in_bytes", bytes) ||
        (dir->has("memory.memsw.limit_in_bytes") &&
         !dir->write("memory.memsw.limit_in_bytes", bytes))) {
        return nullptr;
    }
    procs = dir->open_procs();
    return procs.valid() ? std::move(dir) : nullptr;
}

std::unique_ptr<CgroupDir> make_pids(const CgroupRequest &request, UniqueFd &procs) {
    if (request.pids == 0 || !writable_folder(kPidsRoot)) {
        return nullptr;
    }
    auto dir = CgroupDir::create(std::string(kPidsRoot) + "/sandbox-runner", request.name);
    if (!dir || !dir->write("pids.max", std::to_string(request.pids))) {
        return nullptr;
    }
    procs = dir->open_procs();
    return procs.valid() ? std::move(dir) : nullptr;
}

}  // namespace

std::unique_ptr<RunCgroups> make_cgroups_v1(const CgroupRequest &request) {
    auto cgroups = std::make_unique<CgroupsV1>();
    cgroups->memory = make_memory(request, cgroups->memory_procs);
    cgroups->pids = make_pids(request, cgroups->pids_procs);
    if (!cgroups->memory && !cgroups->pids) {
        return nullptr;
    }
    return cgroups;
}

}  // namespace sbx::local
