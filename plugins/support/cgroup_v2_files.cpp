// Best effort, as a counter read after a run must be: a file that cannot be read leaves its
// counters unknown and never fails the run.
#include "cgroup_v2_files.hpp"

#include <algorithm>
#include <string_view>

#include "cgroup_files.hpp"

namespace sbx::support {

CgroupV2Counters read_cgroup_v2_counters(const std::string &folder) {
    CgroupV2Counters counters;
    if (const auto events = read_kernel_file(folder + "/memory.events")) {
        counters.oom_kills = flat_keyed_value(*events, "oom_kill");
    }
    if (const auto peak = read_kernel_file(folder + "/memory.peak")) {
        counters.memory_peak_bytes = single_value(*peak);
    }
    if (const auto events = read_kernel_file(folder + "/pids.events")) {
        counters.pids_refused = flat_keyed_value(*events, "max");
    }
    if (const auto stat = read_kernel_file(folder + "/cpu.stat")) {
        counters.cpu_user_usec = flat_keyed_value(*stat, "user_usec");
        counters.cpu_system_usec = flat_keyed_value(*stat, "system_usec");
        counters.cpu_throttled_periods = flat_keyed_value(*stat, "nr_throttled");
        counters.cpu_throttled_usec = flat_keyed_value(*stat, "throttled_usec");
    }
    if (const auto stat = read_kernel_file(folder + "/io.stat")) {
        const auto bytes = block_io_bytes(*stat);
        counters.disk_read_bytes = bytes ? bytes->read : 0;
        counters.disk_write_bytes = bytes ? bytes->written : 0;
    }
    return counters;
}

bool cgroup_v2_mounted(const std::string &root) {
    return offered_controllers(root).has_value();
}

std::optional<std::string> offered_controllers(const std::string &folder) {
    return read_kernel_file(folder + "/cgroup.controllers");
}

std::string enabled_controllers(const std::string &folder) {
    return read_kernel_file(folder + "/cgroup.subtree_control").value_or("");
}

std::optional<std::vector<pid_t>> cgroup_members(const std::string &folder) {
    const auto text = read_kernel_file(folder + "/cgroup.procs");
    if (!text) {
        return std::nullopt;
    }
    std::vector<pid_t> members;
    std::size_t at = 0;
    while (at < text->size()) {
        const std::size_t end = std::min(text->find('\n', at), text->size());
        // One pid a line; a line that is no pid (never written by the kernel) is skipped.
        if (const auto pid = single_value(std::string_view(*text).substr(at, end - at));
            pid && *pid > 0) {
            members.push_back(static_cast<pid_t>(*pid));
        }
        at = end + 1;
    }
    return members;
}

}  // namespace sbx::support
