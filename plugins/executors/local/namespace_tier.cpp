// The process-wide namespace tier: starts at the best and steps down once per refusal.
#include "namespace_tier.hpp"

#include <sbx/plugin.hpp>

#include <atomic>
#include <cerrno>
#include <string>

#include "support/sys_error.hpp"

namespace sbx::local {
namespace {

std::atomic<int> g_tier{static_cast<int>(Tier::kNamespaces)};

const char *tier_text(Tier tier) {
    return tier == Tier::kUserNamespace
               ? "runs get PID and mount namespaces inside a user namespace of their own"
               : "targets run in their own session instead, and descendants that leave it "
                 "(setsid) may outlive a run";
}

}  // namespace

Tier current_tier() {
    return static_cast<Tier>(g_tier.load());
}

bool refused_by_kernel(int error) {
    // EPERM: no CAP_SYS_ADMIN (or user namespaces off). EINVAL/ENOSPC/EUSERS: namespaces
    // disabled or nested too deep. EACCES: a security module said no.
    return error == EPERM || error == EINVAL || error == ENOSPC || error == EUSERS ||
           error == EACCES;
}

Tier step_down_from(Tier tier, int error) {
    const auto next = static_cast<Tier>(static_cast<int>(tier) + 1);
    int expected = static_cast<int>(tier);
    if (g_tier.compare_exchange_strong(expected, static_cast<int>(next))) {
        host::log(next == Tier::kProcessGroup ? SBX_LOG_WARN : SBX_LOG_INFO,
                  std::string("cannot create namespaces for a run (") + support::errno_text(error) +
                      "); " + tier_text(next));
    }
    return next;
}

}  // namespace sbx::local
