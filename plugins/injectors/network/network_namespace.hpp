// One prepared network for a preset: the namespace, its uplink (network mode) or none
// (network_partition), the queueing disciplines and, without netem, the NFQUEUE helper.
// Made whole by the constructor or not at all; undone by the destructor.
//
// The namespace is one of two kinds. As root: a named one (/run/netns/sbx-…), with an
// uplink, recorded for sweep(). As a normal user: one owned by a user namespace of its own
// (support::UserNetwork), held open by this process alone, so it can neither be named nor
// outlive the host; it has no uplink (a veth end in the host's namespace needs root), so
// upstreams reach the run through fault_proxy's in-namespace proxies.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "named_namespace.hpp"
#include "network_plan.hpp"
#include "packet_queue.hpp"
#include "stale_records.hpp"
#include "support/network_entry.hpp"
#include "uplink.hpp"

namespace sbx::network {

struct NamespaceOptions {
    std::string impairment = "auto";  // auto (netem when the kernel has it), netem, nfqueue
    std::uint64_t seed = 0;           // of the NFQUEUE helper's schedule
    bool uplink = true;               // give network (not partition) namespaces a way out
    std::string uplink_pool = "10.213.0.0/16";
    std::filesystem::path record_folder;  // <state_dir>/network; empty: no record
    // named (root), user (a user namespace owns it), or auto: named for root, else user.
    std::string kind = "auto";
};

// Throws sbx::Error(SBX_UNSUPPORTED), saying what to do, when this process cannot make the
// namespaces `options` ask for: iproute2 missing, `named` without root, or no user
// namespaces for `user`. What the host's probe before a matrix asks.
void check_can_make_namespaces(const NamespaceOptions &options);

class NetworkNamespace {
  public:
    // Throws sbx::Error, with everything made so far undone (members are destroyed).
    NetworkNamespace(const NetworkPlan &plan, const NamespaceOptions &options);
    NetworkNamespace(const NetworkNamespace &) = delete;
    NetworkNamespace &operator=(const NetworkNamespace &) = delete;
    ~NetworkNamespace() = default;  // the members undo it, in reverse order

    [[nodiscard]] const std::string &name() const { return name_; }
    // What the executor's spec field `netns` receives.
    [[nodiscard]] const std::string &path() const { return entry_->path(); }
    // How it was done: the mechanism, the netem probe's answer, the uplink's addresses.
    [[nodiscard]] const nlohmann::json &report() const { return report_; }
    // The uplink's host-side address, or "" without one.
    [[nodiscard]] std::string host_address() const {
        return uplink_ ? uplink_->host_address() : std::string();
    }

  private:
    NetworkNamespace(const NetworkPlan &plan, const NamespaceOptions &options,
                     const NetworkNames &names);

    std::string name_;
    nlohmann::json report_;
    // Declared in the order they are made; destroyed in reverse.
    std::optional<NamespaceRecord> record_;               // named only
    std::unique_ptr<NamedNamespace> netns_;               // named, or
    std::unique_ptr<support::UserNetwork> user_network_;  // owned by a user namespace
    std::unique_ptr<support::NetworkEntry> entry_;        // how tools and sockets get in
    std::unique_ptr<Uplink> uplink_;
    std::unique_ptr<PacketQueue> queue_;
};

}  // namespace sbx::network
