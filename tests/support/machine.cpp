// Reading the machine's facts from /proc and /sys (see machine.hpp).
#include "machine.hpp"

#include <sched.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

namespace sbx::test {
namespace {

std::string read_text(const std::string &path) {
    std::ifstream in(path);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

bool has_word(const std::string &text, const std::string &word, char separator = ' ') {
    std::istringstream words(text);
    std::string item;
    while (std::getline(words, item, separator)) {
        std::istringstream trimmed(item);
        std::string token;
        while (trimmed >> token) {
            if (token == word) {
                return true;
            }
        }
    }
    return false;
}

// A mount of /proc/self/mountinfo: where, which type, its super options.
struct Mount {
    std::string point;
    std::string type;
    std::string options;
};

std::vector<Mount> cgroup_mounts() {
    std::vector<Mount> mounts;
    std::istringstream lines(read_text("/proc/self/mountinfo"));
    std::string line;
    while (std::getline(lines, line)) {
        // id parent dev root point options [optional...] - type source super-options
        std::istringstream fields(line);
        std::string skip;
        Mount mount;
        fields >> skip >> skip >> skip >> skip >> mount.point;
        while (fields >> skip && skip != "-") {
        }
        std::string source;
        fields >> mount.type >> source >> mount.options;
        if (mount.type == "cgroup" || mount.type == "cgroup2") {
            mounts.push_back(mount);
        }
    }
    return mounts;
}

}  // namespace

std::string own_cgroup_path(const std::string &controller) {
    std::istringstream lines(read_text("/proc/self/cgroup"));
    std::string line;
    while (std::getline(lines, line)) {
        // id:controllers:path; v2's line is "0::path".
        const auto first = line.find(':');
        const auto second = line.find(':', first + 1);
        if (first == std::string::npos || second == std::string::npos) {
            continue;
        }
        const std::string controllers = line.substr(first + 1, second - first - 1);
        if (controller.empty() ? line.rfind("0::", 0) == 0
                               : has_word(controllers, controller, ',')) {
            return line.substr(second + 1);
        }
    }
    return "";
}

std::vector<std::string> cgroup_mount_points(const std::string &controller) {
    std::vector<std::string> points;
    for (const Mount &mount : cgroup_mounts()) {
        if (controller.empty()
                ? mount.type == "cgroup2"
                : mount.type == "cgroup" && has_word(mount.options, controller, ',')) {
            points.push_back(mount.point);
        }
    }
    return points;
}

CgroupOffer cgroup_offer(const std::string &controller) {
    std::string why = "no cgroup hierarchy offers '" + controller + "'";
    for (const Mount &mount : cgroup_mounts()) {
        if (mount.type != "cgroup2") {
            continue;
        }
        const std::string own = mount.point + own_cgroup_path();
        if (!has_word(read_text(own + "/cgroup.controllers"), controller)) {
            why = "cgroup v2 at " + mount.point + " does not offer '";
            why += controller + "' to ";
            why += own;
            continue;
        }
        if (::access(own.c_str(), W_OK) != 0) {
            why = "cgroup v2 offers '" + controller + "' but uid ";
            why += std::to_string(::getuid()) + " may not write " + own;
            why += " (delegate a subtree: systemd-run --user --scope -p Delegate=yes ...)";
            continue;
        }
        return {"cgroup_v2", ""};
    }
    const std::string v1_name = controller == "io" ? "blkio" : controller;
    for (const Mount &mount : cgroup_mounts()) {
        if (mount.type != "cgroup" || !has_word(mount.options, v1_name, ',')) {
            continue;
        }
        if (::access(mount.point.c_str(), W_OK) != 0) {
            why = "cgroup v1 holds '" + v1_name + "' at " + mount.point + " but uid " +
                  std::to_string(::getuid()) + " may not write it";
            continue;
        }
        return {"cgroup_v1", ""};
    }
    return {"", why};
}

std::string swap_hold(const std::string &version) {
    return version == "cgroup_v2" ? "memory.swap.max=0" : "memory.memsw.limit_in_bytes";
}

bool has_swap() {
    std::istringstream lines(read_text("/proc/swaps"));
    std::string line;
    std::getline(lines, line);  // the header
    return static_cast<bool>(std::getline(lines, line)) && !line.empty();
}

unsigned usable_cores() {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (::sched_getaffinity(0, sizeof set, &set) != 0) {
        return 1;
    }
    return static_cast<unsigned>(CPU_COUNT(&set));
}

bool kernel_offers_netem() {
    if (std::filesystem::exists("/sys/module/sch_netem")) {
        return true;
    }
    utsname name{};
    if (::uname(&name) != 0) {
        return false;
    }
    const std::string release = name.release;
    if (read_text("/lib/modules/" + release + "/modules.builtin").find("sch_netem.ko") !=
        std::string::npos) {
        return true;
    }
    const std::string module = "/lib/modules/" + release + "/kernel/net/sched/sch_netem.ko";
    for (const char *suffix : {"", ".xz", ".zst", ".gz"}) {
        if (std::filesystem::exists(module + suffix)) {
            return true;
        }
    }
    return false;
}

std::string first_missing_tool(const std::vector<std::string> &tools) {
    const char *path = std::getenv("PATH");
    for (const std::string &tool : tools) {
        bool found = false;
        std::istringstream dirs(path ? path : "/usr/bin:/bin");
        std::string dir;
        while (!found && std::getline(dirs, dir, ':')) {
            dir += '/';
            dir += tool;
            found = ::access(dir.c_str(), X_OK) == 0;
        }
        if (!found) {
            return tool;
        }
    }
    return "";
}

}  // namespace sbx::test
