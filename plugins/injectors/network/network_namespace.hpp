// One prepared network for a preset: the namespace, its uplink (network mode) or none
// (network_partition), the queueing disciplines and, without netem, the NFQUEUE helper.
// Made whole by the constructor or not at all; undone by the destructor.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "named_namespace.hpp"
#include "network_plan.hpp"
#include "packet_queue.hpp"
#include "stale_records.hpp"
#include "uplink.hpp"

namespace sbx::network {

struct NamespaceOptions {
    std::string impairment = "auto";  // auto (netem when the kernel has it), netem, nfqueue
    std::uint64_t seed = 0;           // of the NFQUEUE helper's schedule
    bool uplink = true;               // give network (not partition) namespaces a way out
    std::string uplink_pool = "10.213.0.0/16";
    std::filesystem::path record_folder;  // <state_dir>/network; empty: no record
};

class NetworkNamespace {
  public:
    // Throws sbx::Error, with everything made so far undone (members are destroyed).
    NetworkNamespace(const NetworkPlan &plan, const NamespaceOptions &options);
    NetworkNamespace(const NetworkNamespace &) = delete;
    NetworkNamespace &operator=(const NetworkNamespace &) = delete;
    ~NetworkNamespace() = default;  // the members undo it, in reverse order

    [[nodiscard]] const std::string &name() const { return name_; }
    [[nodiscard]] std::string path() const { return namespace_path(name_); }
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
    NamespaceRecord record_;
    std::unique_ptr<NamedNamespace> netns_;
    std::unique_ptr<Uplink> uplink_;
    std::unique_ptr<PacketQueue> queue_;
};

}  // namespace sbx::network
