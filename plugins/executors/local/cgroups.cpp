// Choosing the cgroup version for a run and naming its cgroups.
// v2 is preferred where its controllers are available (most production machines); v1 else.
#include "cgroups.hpp"

#include <unistd.h>

#include <atomic>

namespace sbx::local {

std::string next_cgroup_name() {
    static std::atomic<std::uint64_t> counter{0};
    return "run-" + std::to_string(::getpid()) + "-" + std::to_string(++counter);
}

std::unique_ptr<RunCgroups> make_run_cgroups(const CgroupRequest &request) {
    if (request.memory_bytes == 0 && request.pids == 0) {
        return nullptr;
    }
    if (auto v2 = make_cgroups_v2(request)) {
        return v2;
    }
    return make_cgroups_v1(request);
}

}  // namespace sbx::local
