// The `network` mode's way out: a veth pair from the host into the namespace with a /30
// from a configurable pool, and a default route through the host. network_partition
// namespaces never get one.
#pragma once

#include <string>

namespace sbx::network {

// The interface name inside every namespace.
constexpr const char *kInsideLink = "eth0";

// Throws sbx::Error(SBX_INVALID) unless `cidr` is an IPv4 block from /8 to /30.
void check_uplink_pool(const std::string &cidr);

class Uplink {
  public:
    // Makes the pair `host_link` <-> eth0 inside `netns`, takes the first /30 of `pool`
    // ("10.213.0.0/16") no interface of the host uses, and routes the namespace through it.
    // Throws sbx::Error, having removed what it made.
    Uplink(const std::string &netns, std::string host_link, const std::string &pool);
    ~Uplink();
    Uplink(const Uplink &) = delete;
    Uplink &operator=(const Uplink &) = delete;

    [[nodiscard]] const std::string &host_link() const { return host_link_; }
    [[nodiscard]] const std::string &host_address() const { return host_address_; }
    [[nodiscard]] const std::string &inside_address() const { return inside_address_; }

  private:
    std::string host_link_;
    std::string host_address_;
    std::string inside_address_;
};

}  // namespace sbx::network
