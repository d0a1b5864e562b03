// Choosing the cgroup version for a run and naming its cgroups.
// v2 is preferred where its controllers are available (most production machines); v1 else.
#include "cgroups.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>

namespace sbx::local {

std::string next_cgroup_name() {
    static std::atomic<std::uint64_t> counter{0};
    return "run-" + std::to_string(::getpid()) + "-" + std::to_string(++counter);
}

std::uint64_t cpu_quota_us(double cpu_cores) {
    // 1 ms is the kernel's minimum quota; the cap keeps the conversion defined for any
    // finite share a spec may carry (far above any machine's cores).
    constexpr double kMinQuotaUs = 1000;
    constexpr double kMaxQuotaUs = 1e12;
    return static_cast<std::uint64_t>(std::clamp(
        std::round(cpu_cores * static_cast<double>(kCpuPeriodUs)), kMinQuotaUs, kMaxQuotaUs));
}

std::unique_ptr<RunCgroups> make_run_cgroups(const CgroupRequest &request) {
    if (!request.wants_any()) {
        return nullptr;
    }
    if (auto v2 = make_cgroups_v2(request)) {
        return v2;
    }
    return make_cgroups_v1(request);
}

}  // namespace sbx::local
