// /proc/PID/cgroup names a process's cgroups; which files hold the figures depends on the
// hierarchy. Every read is best effort: a figure that cannot be read stays 0 or unknown.
#include "cgroup_usage.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace sbx::docker {
namespace {

constexpr const char kRoot[] = "/sys/fs/cgroup";

bool readable(const std::string &path) {
    return std::ifstream(path).good();
}

std::optional<std::uint64_t> read_number(const std::string &path) {
    std::ifstream in(path);
    std::uint64_t value = 0;
    if (in >> value) {
        return value;
    }
    return std::nullopt;
}

// "key value" lines (v2 cpu.stat).
std::optional<std::uint64_t> read_key(const std::string &path, const std::string &wanted) {
    std::ifstream in(path);
    std::string key;
    std::uint64_t value = 0;
    while (in >> key >> value) {
        if (key == wanted) {
            return value;
        }
    }
    return std::nullopt;
}

bool v1_layout() {
    return readable(std::string(kRoot) + "/cpuacct/cpuacct.usage_user");
}

bool v2_layout() {
    return readable(std::string(kRoot) + "/cgroup.controllers");
}

}  // namespace

CgroupUsage CgroupUsage::of_process(long pid) {
    CgroupUsage usage;
    if (pid <= 0) {
        return usage;
    }
    std::ifstream in("/proc/" + std::to_string(pid) + "/cgroup");
    std::string line;
    std::string unified;
    while (std::getline(in, line)) {
        const auto first = line.find(':');
        const auto second = line.find(':', first + 1);
        if (first == std::string::npos || second == std::string::npos) {
            continue;
        }
        const std::string controllers = line.substr(first + 1, second - first - 1);
        const std::string path = line.substr(second + 1);
        std::istringstream names(controllers);
        std::string name;
        while (std::getline(names, name, ',')) {
            if (name == "cpuacct") {
                usage.cpu_dir_ = std::string(kRoot) + "/cpuacct" + path;
            } else if (name == "memory") {
                usage.memory_dir_ = std::string(kRoot) + "/memory" + path;
            }
        }
        if (controllers.empty()) {
            unified = path;
        }
    }
    if (!usage.cpu_dir_.empty() && readable(usage.cpu_dir_ + "/cpuacct.usage_user")) {
        usage.source_ = "cgroup_v1";
    } else if (!unified.empty() && v2_layout()) {
        usage.cpu_dir_ = usage.memory_dir_ = std::string(kRoot) + unified;
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
    } else if (v2_layout()) {
        usage.cpu_dir_ = usage.memory_dir_ = std::string(kRoot) + path;
        usage.source_ = "cgroup_v2";
    }
    return usage;
}

CgroupFigures CgroupUsage::read() const {
    CgroupFigures figures;
    if (source_ == "cgroup_v1") {
        figures.cpu_user_s =
            static_cast<double>(read_number(cpu_dir_ + "/cpuacct.usage_user").value_or(0)) / 1e9;
        figures.cpu_sys_s =
            static_cast<double>(read_number(cpu_dir_ + "/cpuacct.usage_sys").value_or(0)) / 1e9;
        figures.memory_peak_bytes = read_number(memory_dir_ + "/memory.max_usage_in_bytes");
    } else if (source_ == "cgroup_v2") {
        figures.cpu_user_s =
            static_cast<double>(read_key(cpu_dir_ + "/cpu.stat", "user_usec").value_or(0)) / 1e6;
        figures.cpu_sys_s =
            static_cast<double>(read_key(cpu_dir_ + "/cpu.stat", "system_usec").value_or(0)) / 1e6;
        figures.memory_peak_bytes = read_number(memory_dir_ + "/memory.peak");
    }
    return figures;
}

bool CgroupUsage::reset_memory_peak() const {
    if (source_ != "cgroup_v1") {
        return false;  // v2's memory.peak resets only per open file (Linux 6.12)
    }
    std::ofstream out(memory_dir_ + "/memory.max_usage_in_bytes");
    out << "0";
    out.flush();
    return out.good();
}

std::optional<std::uint64_t> CgroupUsage::oom_kills() const {
    if (memory_dir_.empty()) {
        return std::nullopt;
    }
    if (auto v1 = read_key(memory_dir_ + "/memory.oom_control", "oom_kill")) {
        return v1;
    }
    return read_key(memory_dir_ + "/memory.events", "oom_kill");
}

CgroupFigures cpu_between(const CgroupFigures &before, const CgroupFigures &after) {
    CgroupFigures used;
    used.cpu_user_s = std::max(0.0, after.cpu_user_s - before.cpu_user_s);
    used.cpu_sys_s = std::max(0.0, after.cpu_sys_s - before.cpu_sys_s);
    used.memory_peak_bytes = after.memory_peak_bytes;
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
            const long pid = std::atol(name.c_str());
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
