// /proc/PID/cgroup names a process's cgroups; which files hold the figures depends on the
// hierarchy, and plugins/support reads them (cgroup_v1_files, cgroup_v2_files). Every read is
// best effort: a figure that cannot be read stays 0 or unknown.
#include "cgroup_usage.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "support/cgroup_files.hpp"
#include "support/cgroup_v1_files.hpp"
#include "support/cgroup_v2_files.hpp"
#include "support/number_parse.hpp"

namespace sbx::docker {
namespace {

constexpr const char *kRoot = support::kCgroupRoot;

bool v1_layout() {
    return support::has_cgroup_v1_cpu_time(std::string(kRoot) + "/cpuacct");
}

}  // namespace

CgroupUsage CgroupUsage::of_process(long pid) {
    CgroupUsage usage;
    if (pid <= 0) {
        return usage;
    }
    const auto memberships = support::cgroup_memberships_of(std::to_string(pid));
    for (const auto &membership : memberships) {
        std::istringstream names(membership.controllers);
        std::string name;
        while (std::getline(names, name, ',')) {
            if (name == "cpuacct") {
                usage.cpu_dir_ = std::string(kRoot) + "/cpuacct" + membership.path;
            } else if (name == "memory") {
                usage.memory_dir_ = std::string(kRoot) + "/memory" + membership.path;
            } else if (name == "blkio") {
                usage.blkio_dir_ = std::string(kRoot) + "/blkio" + membership.path;
            }
        }
    }
    const std::string unified = support::unified_cgroup_path(memberships).value_or("");
    if (!usage.cpu_dir_.empty() && support::has_cgroup_v1_cpu_time(usage.cpu_dir_)) {
        usage.source_ = "cgroup_v1";
    } else if (!unified.empty() && support::cgroup_v2_mounted(kRoot)) {
        usage.cpu_dir_ = usage.memory_dir_ = usage.blkio_dir_ = std::string(kRoot) + unified;
        usage.source_ = "cgroup_v2";
    }
    return usage;
}

CgroupUsage CgroupUsage::at_path(const std::string &path) {
    CgroupUsage usage;
    if (v1_layout()) {
        usage.cpu_dir_ = std::string(kRoot) + "/cpuacct" + path;
        usage.memory_dir_ = std::string(kRoot) + "/memory" + path;
        usage.source_ = "cgroup_v1";
    } else if (support::cgroup_v2_mounted(kRoot)) {
        usage.cpu_dir_ = usage.memory_dir_ = std::string(kRoot) + path;
        usage.source_ = "cgroup_v2";
    }
    return usage;
}

CgroupFigures CgroupUsage::read() const {
    CgroupFigures figures;
    if (source_ == "cgroup_v1") {
        const auto time = support::read_cgroup_v1_cpu_time(cpu_dir_);
        figures.cpu_user_s = static_cast<double>(time.user_ns.value_or(0)) / 1e9;
        figures.cpu_sys_s = static_cast<double>(time.system_ns.value_or(0)) / 1e9;
        figures.memory_peak_bytes = support::read_cgroup_v1_memory(memory_dir_).memory_peak_bytes;
        if (!blkio_dir_.empty()) {
            if (const auto io = support::read_cgroup_v1_block_io(blkio_dir_)) {
                figures.disk_read_bytes = io->read;
                figures.disk_write_bytes = io->written;
            }
        }
    } else if (source_ == "cgroup_v2") {
        // One folder holds every controller's files (cpu_dir_ == memory_dir_).
        const auto counters = support::read_cgroup_v2_counters(cpu_dir_);
        figures.cpu_user_s = static_cast<double>(counters.cpu_user_usec.value_or(0)) / 1e6;
        figures.cpu_sys_s = static_cast<double>(counters.cpu_system_usec.value_or(0)) / 1e6;
        figures.memory_peak_bytes = counters.memory_peak_bytes;
        if (!blkio_dir_.empty()) {
            figures.disk_read_bytes = counters.disk_read_bytes;
            figures.disk_write_bytes = counters.disk_write_bytes;
        }
    }
    return figures;
}

bool CgroupUsage::reset_memory_peak() const {
    if (source_ != "cgroup_v1") {
        return false;  // v2's memory.peak resets only per open file (Linux 6.12)
    }
    return support::reset_cgroup_v1_memory_peak(memory_dir_);
}

std::optional<std::uint64_t> CgroupUsage::oom_kills() const {
    if (memory_dir_.empty()) {
        return std::nullopt;
    }
    if (auto v1 = support::read_cgroup_v1_memory(memory_dir_).oom_kills) {
        return v1;
    }
    return support::read_cgroup_v2_counters(memory_dir_).oom_kills;
}

CgroupFigures cpu_between(const CgroupFigures &before, const CgroupFigures &after) {
    CgroupFigures used;
    used.cpu_user_s = std::max(0.0, after.cpu_user_s - before.cpu_user_s);
    used.cpu_sys_s = std::max(0.0, after.cpu_sys_s - before.cpu_sys_s);
    used.memory_peak_bytes = after.memory_peak_bytes;
    const auto between = [](const std::optional<std::uint64_t> &first,
                            const std::optional<std::uint64_t> &last) {
        return first && last ? std::optional<std::uint64_t>(*last > *first ? *last - *first : 0)
                             : std::nullopt;
    };
    used.disk_read_bytes = between(before.disk_read_bytes, after.disk_read_bytes);
    used.disk_write_bytes = between(before.disk_write_bytes, after.disk_write_bytes);
    return used;
}

ParentCgroup::ParentCgroup() {
    static std::atomic<unsigned long> counter{0};
    // The host pid leads the name, so the sweep can tell a dead host's.
    path_ = std::string(kParentCgroupFolder) + "/" + std::to_string(::getpid()) + "-" +
            std::to_string(++counter);
}

ParentCgroup::~ParentCgroup() {
    // The runtime made it in every hierarchy (v1) or once (v2); an rmdir of a cgroup that
    // still has a child (a container the engine failed to remove) fails and is swept later.
    std::error_code error;
    for (const auto &entry : std::filesystem::directory_iterator(kRoot, error)) {
        ::rmdir((entry.path().string() + path_).c_str());
    }
    ::rmdir((std::string(kRoot) + path_).c_str());
}

std::vector<std::string> sweep_parent_cgroups(bool dry_run) {
    std::vector<std::string> removed;
    std::vector<std::string> roots = {kRoot};
    std::error_code error;
    for (const auto &entry : std::filesystem::directory_iterator(kRoot, error)) {
        roots.push_back(entry.path().string());
    }
    std::vector<std::string> names;
    for (const auto &root : roots) {
        const std::string folder = root + kParentCgroupFolder;
        for (const auto &entry : std::filesystem::directory_iterator(folder, error)) {
            const std::string name = entry.path().filename().string();
            // "<host pid>-<n>", as ParentCgroup names them.
            const auto pid =
                support::parse_int64(name.substr(0, name.find('-')), support::LeadingPlus::refused)
                    .value_or(0);
            if (pid <= 0 || std::filesystem::exists("/proc/" + std::to_string(pid)) ||
                !entry.is_directory()) {
                continue;
            }
            if (!dry_run) {
                ::rmdir(entry.path().c_str());
            }
            if (std::find(names.begin(), names.end(), name) == names.end()) {
                names.push_back(name);
                removed.push_back(std::string("cgroup ") + kParentCgroupFolder + "/" + name +
                                  " of dead host " + std::to_string(pid));
            }
        }
    }
    return removed;
}

}  // namespace sbx::docker
