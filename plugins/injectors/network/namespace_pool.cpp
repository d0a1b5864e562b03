// Weak references keyed by preset and configuration. A namespace is destroyed by whoever
// drops its last strong reference, outside this lock.
#include "namespace_pool.hpp"

#include <map>
#include <mutex>

namespace sbx::network {

std::shared_ptr<NetworkNamespace> shared_namespace(
    const std::string &key, const std::function<std::shared_ptr<NetworkNamespace>()> &make,
    bool &reused) {
    static std::mutex mutex;
    static std::map<std::string, std::weak_ptr<NetworkNamespace>> pool;
    const std::lock_guard<std::mutex> lock(mutex);
    for (auto entry = pool.begin(); entry != pool.end();) {
        entry = entry->second.expired() ? pool.erase(entry) : std::next(entry);
    }
    if (auto found = pool.find(key); found != pool.end()) {
        if (auto live = found->second.lock()) {
            reused = true;
            return live;
        }
    }
    reused = false;
    auto made = make();
    pool[key] = made;
    return made;
}

}  // namespace sbx::network
