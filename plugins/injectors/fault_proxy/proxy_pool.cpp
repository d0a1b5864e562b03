// One mutex and condition variable guard the address table; proxies are made under it
// (binding is quick) and stopped outside it (stopping joins a thread).
#include "proxy_pool.hpp"

#include <sbx/plugin.hpp>

#include <condition_variable>
#include <map>
#include <mutex>

namespace sbx::fault_proxy {
namespace {

struct Slot {
    std::string plan_key;
    std::shared_ptr<ProxyServer> proxy;
    int holders = 0;
};

struct Table {
    std::mutex mutex;
    std::condition_variable freed;
    std::map<std::string, Slot> slots;
};

Table &table() {
    static auto *const shared = new Table();  // never destroyed: threads may outlive statics
    return *shared;
}

}  // namespace

ProxyLease::~ProxyLease() {
    if (address_key_.empty()) {
        return;
    }
    std::shared_ptr<ProxyServer> last;
    {
        auto &t = table();
        const std::lock_guard<std::mutex> lock(t.mutex);
        const auto slot = t.slots.find(address_key_);
        if (slot != t.slots.end() && --slot->second.holders == 0) {
            last = std::move(slot->second.proxy);
            t.slots.erase(slot);
        }
    }
    proxy_.reset();
    last.reset();  // stops the proxy here, outside the lock, when this was the last lease
    table().freed.notify_all();
}

ProxyLease lease_proxy(const std::string &address_key, const std::string &plan_key,
                       const std::function<std::shared_ptr<ProxyServer>()> &make,
                       std::chrono::milliseconds wait, const std::function<bool()> &cancelled) {
    auto &t = table();
    const auto deadline = std::chrono::steady_clock::now() + wait;
    std::unique_lock<std::mutex> lock(t.mutex);
    for (;;) {
        const auto slot = t.slots.find(address_key);
        if (slot == t.slots.end()) {
            Slot fresh{plan_key, make(), 1};
            auto proxy = fresh.proxy;
            t.slots.emplace(address_key, std::move(fresh));
            return {address_key, std::move(proxy), false};
        }
        if (slot->second.plan_key == plan_key) {
            ++slot->second.holders;
            return {address_key, slot->second.proxy, true};
        }
        if (cancelled()) {
            throw Error(SBX_CANCELLED, "stopped while waiting for " + address_key);
        }
        if (std::chrono::steady_clock::now() >= deadline) {
            throw Error(SBX_TIMEOUT,
                        "listen address " + address_key + " has been held by the fault proxy " +
                            "of another preset for more than " + std::to_string(wait.count()) +
                            " ms; give the upstream listen port 0 (any free port) so that runs "
                            "of different presets need not wait for each other, or raise wait_ms");
        }
        t.freed.wait_for(lock, std::chrono::milliseconds(50));
    }
}

std::shared_ptr<ConnectionSchedule> shared_schedule(const std::string &key, std::uint64_t seed,
                                                    const std::string &name, std::uint64_t failures,
                                                    std::uint64_t timeouts,
                                                    std::uint64_t requests) {
    static auto *const mutex = new std::mutex();
    static auto *const schedules = new std::map<std::string, std::shared_ptr<ConnectionSchedule>>();
    const std::lock_guard<std::mutex> lock(*mutex);
    auto &schedule = (*schedules)[key];
    if (!schedule) {
        schedule = std::make_shared<ConnectionSchedule>(seed, name, failures, timeouts, requests);
    }
    return schedule;
}

}  // namespace sbx::fault_proxy
