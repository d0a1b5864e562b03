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

std::optional<std::string> read_text(const std::string &path) {
    std::ifstream in(path);
    if (!in) {
        return std::nullopt;
    }
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

bool v1_layout() {
    return readable(std::string(kRoot) + "/cpuacct/cpuacct.usage_user");
}

bool v2_layout() {
    return readable(std::string(kRoot) + "/cgroup.controllers");
}

// The cgroup's block I/O, when its io.stat or blkio file was readable.
void put_io(CgroupFigures &figures, const std::optional<std::string> &text) {
    if (!text) {
        return;
    }
    const auto bytes = io_bytes(*text);
    // An io.stat with no device line is a cgroup that has done no I/O yet: zero, not unknown.
    figures.disk_read_bytes = bytes ? bytes->first : 0;
    figures.disk_write_bytes = bytes ? bytes->second : 0;
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
            } else if (name == "blkio") {
                usage.blkio_dir_ = std::string(kRoot) + "/blkio" + path;
            }
        }
        if (controllers.empty()) {
            unified = path;
        }
    }
    if (!usage.cpu_dir_.empty() && readable(usage.cpu_dir_ + "/cpuacct.usage_user")) {
        usage.source_ = "cgroup_v1";
    } else if (!unified.empty() && v2_layout()) {
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
        if (!blkio_dir_.empty()) {
            auto io = read_text(blkio_dir_ + "/blkio.throttle.io_service_bytes_recursive");
            if (!io) {
                io = read_text(blkio_dir_ + "/blkio.throttle.io_service_bytes");
            }
            put_io(figures, io);
        }
    } else if (source_ == "cgroup_v2") {
        figures.cpu_user_s =
            static_cast<double>(read_key(cpu_dir_ + "/cpu.stat", "user_usec").value_or(0)) / 1e6;
        figures.cpu_sys_s =
            static_cast<double>(read_key(cpu_dir_ + "/cpu.stat", "system_usec").value_or(0)) / 1e6;
        figures.memory_peak_bytes = read_number(memory_dir_ + "/memory.peak");
        if (!blkio_dir_.empty()) {
            put_io(figures, read_text(blkio_dir_ + "/io.stat"));
        }
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
    const auto between = [](const std::optional<std::uint64_t> &first,
                            const std::optional<std::uint64_t> &last) {
        return first && last ? std::optional<std::uint64_t>(*last > *first ? *last - *first : 0)
                             : std::nullopt;
    };
    used.disk_read_bytes = between(before.disk_read_bytes, after.disk_read_bytes);
    used.disk_write_bytes = between(before.disk_write_bytes, after.disk_write_bytes);
    return used;
}

std::optional<std::pair<std::uint64_t, std::uint64_t>> io_bytes(const std::string &text) {
    std::istringstream lines(text);
    std::string line;
    std::uint64_t read = 0;
    std::uint64_t written = 0;
    bool any = false;
    while (std::getline(lines, line)) {
        std::istringstream words(line);
        std::string device;
        std::string word;
        if (!(words >> device) || device.find(':') == std::string::npos) {
            continue;  // v1's "Total N"
        }
        any = true;
        while (words >> word) {
            std::uint64_t value = 0;
            if (word.rfind("rbytes=", 0) == 0) {
                std::istringstream(word.substr(7)) >> value;
                read += value;
            } else if (word.rfind("wbytes=", 0) == 0) {
                std::istringstream(word.substr(7)) >> value;
                written += value;
            } else if ((word == "Read" || word == "Write") && (words >> value)) {
                (word == "Read" ? read : written) += value;
            }
        }
    }
    if (!any) {
        return std::nullopt;
    }
    return std::pair(read, written);
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
