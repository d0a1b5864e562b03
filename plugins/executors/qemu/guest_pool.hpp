// The warm guests of this process, shared by every instance of the executor: the workers'
// instances and the copies a CONCURRENCY_LEVEL spike makes all run on one guest per plan
// (the agent runs jobs side by side) instead of each booting its own. A guest stops when the
// last instance holding it lets go.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "guest_vm.hpp"

namespace sbx::qemu {

class GuestPool {
  public:
    static GuestPool &shared();

    struct Lease {
        std::shared_ptr<GuestVm> guest;  // null when the boot failed
        bool booted = false;             // this call booted it
        std::string error;               // why there is no guest
    };

    // The running guest for `key`, or one `boot` makes (it throws std::exception to fail).
    // One boot at a time: callers that come while it runs wait for it and share its guest,
    // or its failure, rather than booting their own.
    Lease acquire(const std::string &key, const std::function<std::unique_ptr<GuestVm>()> &boot);
    // Forgets `guest` (lost, or cancelled): the next acquire boots afresh. True when this
    // call took it out of the pool (false: another caller did first).
    bool discard(const std::shared_ptr<GuestVm> &guest);

  private:
    std::mutex boot_mutex_;  // held for a whole boot
    std::mutex mutex_;       // guards the maps
    std::map<std::string, std::weak_ptr<GuestVm>> guests_;
    // The last failed boot per key and when it ended, for callers that waited on it.
    std::map<std::string, std::pair<std::chrono::steady_clock::time_point, std::string>> failures_;
};

}  // namespace sbx::qemu
