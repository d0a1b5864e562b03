// /proc/PID/cgroup names the cgroup; the counter file depends on the hierarchy.
#include "oom_counter.hpp"

#include <fstream>
#include <sstream>

namespace sbx::docker {
namespace {

bool readable(const std::string &path) {
    return std::ifstream(path).good();
}

}  // namespace

OomCounter::OomCounter(long pid) {
    if (pid <= 0) {
        return;
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
            if (name == "memory") {
                const std::string v1 = "/sys/fs/cgroup/memory" + path + "/memory.oom_control";
                if (readable(v1)) {
                    file_ = v1;
                    return;
                }
            }
        }
        if (controllers.empty()) {
            unified = path;
        }
    }
    for (const char *root : {"/sys/fs/cgroup", "/sys/fs/cgroup/unified"}) {
        const std::string v2 = std::string(root) + unified + "/memory.events";
        if (!unified.empty() && readable(v2)) {
            file_ = v2;
            return;
        }
    }
}

std::optional<std::uint64_t> OomCounter::count() const {
    if (file_.empty()) {
        return std::nullopt;
    }
    std::ifstream in(file_);
    std::string key;
    std::uint64_t value = 0;
    while (in >> key >> value) {
        if (key == "oom_kill") {
            return value;
        }
    }
    return std::nullopt;
}

}  // namespace sbx::docker
