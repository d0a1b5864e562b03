// Computing the target's rlimits. They are per process (a forking target gets them afresh in
// each child), which is why memory and pids prefer cgroups.
#include "rlimits.hpp"

#include <algorithm>
#include <cmath>

namespace sbx::local {
namespace {

ResourceLimit both(int resource, rlim_t value) {
    return ResourceLimit{resource, {value, value}};
}

}  // namespace

double cpu_soft_limit_s(const support::RunLimits &limits) {
    // Capped far beyond any run so that converting it to rlim_t stays defined behaviour
    // (a spec may carry any finite number of seconds).
    constexpr double kMaxSeconds = 1e15;
    return limits.cpu_time_s > 0 ? std::clamp(std::ceil(limits.cpu_time_s), 1.0, kMaxSeconds) : 0.0;
}

std::vector<ResourceLimit> target_rlimits(const support::RunLimits &limits,
                                          const HeldElsewhere &held) {
    std::vector<ResourceLimit> result;
    result.push_back(both(RLIMIT_CORE, 0));  // a crashing target must not fill the disk
    if (limits.cpu_time_s > 0) {
        const auto soft = static_cast<rlim_t>(cpu_soft_limit_s(limits));
        result.push_back(ResourceLimit{RLIMIT_CPU, {soft, soft + 1}});
    }
    if (limits.disk_bytes > 0 && !held.disk_in_tmpfs) {
        result.push_back(both(RLIMIT_FSIZE, static_cast<rlim_t>(limits.disk_bytes)));
    }
    if (limits.memory_bytes > 0 && !held.memory_in_cgroup) {
        result.push_back(both(RLIMIT_AS, static_cast<rlim_t>(limits.memory_bytes)));
    }
    if (limits.pids > 0 && !held.pids_in_cgroup) {
        result.push_back(both(RLIMIT_NPROC, static_cast<rlim_t>(limits.pids)));
    }
    return result;
}

}  // namespace sbx::local
