// The process-wide table of listen addresses in use by fault proxies. Runs of one preset
// (same plan, same upstream) share the proxy on an address, as concurrent runs share an
// upstream; a run of another preset waits until the address is free, since a fixed address
// can carry only one set of faults at a time. Port 0 is never shared: each run gets a port.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "proxy_server.hpp"

namespace sbx::fault_proxy {

// A share of a proxy; the last lease of an address stops its proxy.
class ProxyLease {
  public:
    ProxyLease() = default;
    ProxyLease(std::string address_key, std::shared_ptr<ProxyServer> proxy, bool shared)
        : address_key_(std::move(address_key)), proxy_(std::move(proxy)), shared_(shared) {}
    ~ProxyLease();
    ProxyLease(ProxyLease &&other) noexcept
        : address_key_(std::move(other.address_key_)),
          proxy_(std::move(other.proxy_)),
          shared_(other.shared_) {
        other.address_key_.clear();
    }
    ProxyLease &operator=(ProxyLease &&) = delete;
    ProxyLease(const ProxyLease &) = delete;
    ProxyLease &operator=(const ProxyLease &) = delete;

    [[nodiscard]] ProxyServer &proxy() const { return *proxy_; }
    // True when the proxy was already running for another run of the same plan.
    [[nodiscard]] bool shared() const { return shared_; }

  private:
    std::string address_key_;
    std::shared_ptr<ProxyServer> proxy_;
    bool shared_ = false;
};

// A lease on `address_key` (network namespace + listen address): the running proxy when
// its `plan_key` matches, else a new one from `make` once the address is free. Waits at
// most `wait`, checking `cancelled` as it does; throws sbx::Error(SBX_TIMEOUT or
// SBX_CANCELLED) when it gives up.
ProxyLease lease_proxy(const std::string &address_key, const std::string &plan_key,
                       const std::function<std::shared_ptr<ProxyServer>()> &make,
                       std::chrono::milliseconds wait, const std::function<bool()> &cancelled);

// The schedule shared by every proxy of `key` (seed, preset, upstream) in this process:
// connection numbers keep counting across runs, so a cell's runs meet the faults at the
// preset's rate together.
std::shared_ptr<ConnectionSchedule> shared_schedule(const std::string &key, std::uint64_t seed,
                                                    const std::string &name, std::uint64_t failures,
                                                    std::uint64_t timeouts, std::uint64_t requests);

}  // namespace sbx::fault_proxy
