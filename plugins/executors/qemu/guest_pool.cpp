// The pool holds weak references: instances own their guests, the pool only finds them.
#include "guest_pool.hpp"

namespace sbx::qemu {

GuestPool &GuestPool::shared() {
    static GuestPool pool;
    return pool;
}

GuestPool::Lease GuestPool::acquire(const std::string &key,
                                    const std::function<std::unique_ptr<GuestVm>()> &boot) {
    const auto asked = std::chrono::steady_clock::now();
    const auto running = [&]() -> std::shared_ptr<GuestVm> {
        std::shared_ptr<GuestVm> guest;
        {
            const std::lock_guard<std::mutex> lock(mutex_);
            const auto found = guests_.find(key);
            guest = found == guests_.end() ? nullptr : found->second.lock();
        }
        // Outside the lock: dropping what may be the last reference stops a guest.
        return guest && guest->usable() ? guest : nullptr;
    };
    if (auto guest = running()) {
        return {guest, false, ""};
    }
    const std::lock_guard<std::mutex> booting(boot_mutex_);
    if (auto guest = running()) {
        return {guest, false, ""};  // booted by the caller we waited for
    }
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        const auto failed = failures_.find(key);
        if (failed != failures_.end() && failed->second.first >= asked) {
            return {nullptr, false, failed->second.second};  // it failed while we waited
        }
    }
    try {
        std::shared_ptr<GuestVm> guest = boot();
        const std::lock_guard<std::mutex> lock(mutex_);
        guests_[key] = guest;
        failures_.erase(key);
        return {guest, true, ""};
    } catch (const std::exception &e) {
        const std::lock_guard<std::mutex> lock(mutex_);
        failures_[key] = {std::chrono::steady_clock::now(), e.what()};
        return {nullptr, false, e.what()};
    }
}

bool GuestPool::discard(const std::shared_ptr<GuestVm> &guest) {
    const std::lock_guard<std::mutex> lock(mutex_);
    bool found = false;
    for (auto it = guests_.begin(); it != guests_.end();) {
        // Never the last reference (the caller holds one): no guest stops under the lock.
        const auto held = it->second.lock();
        found = found || held == guest;
        it = !held || held == guest ? guests_.erase(it) : std::next(it);
    }
    return found;
}

}  // namespace sbx::qemu
