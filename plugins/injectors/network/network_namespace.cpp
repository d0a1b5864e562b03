// Order of construction: record (so a crash from here on is swept), namespace, uplink,
// queueing disciplines, NFQUEUE helper. A throw anywhere destroys what was made, in
// reverse, through the members. A namespace of the user kind needs no record: nothing but
// this process holds it.
#include "network_namespace.hpp"

#include <sbx/plugin.hpp>

#include <unistd.h>

#include <fstream>

#include "support/system_tool.hpp"
#include "traffic_control.hpp"

namespace sbx::network {
namespace {

using nlohmann::json;

// netem or nfqueue for delay/jitter/loss/duplication; "none" when the plan has none.
std::string choose_mechanism(const NetworkPlan &plan, const NamespaceOptions &options,
                             const support::NetworkEntry &netns, json &report) {
    if (!plan.impairs_packets()) {
        return "none";
    }
    if (options.impairment == "nfqueue") {
        return "nfqueue";
    }
    const NetemSupport &netem = probe_netem(netns);
    report["netem"] = {{"available", netem.available}, {"probe", netem.reason}};
    if (netem.available) {
        return "netem";
    }
    if (options.impairment == "netem") {
        throw Error(SBX_UNSUPPORTED,
                    "the network injector is configured with impairment: netem, but this "
                    "kernel has no netem qdisc (tc: " +
                        netem.reason + "); set impairment to auto or nfqueue");
    }
    return "nfqueue";
}

// Root of the machine, not root of a user namespace (a container's, `unshare -r`), which can
// neither write /run/netns nor put a link end in the machine's network.
bool machine_root() {
    if (::geteuid() != 0) {
        return false;
    }
    std::ifstream map("/proc/self/uid_map");
    unsigned long inside = 1;
    unsigned long outside = 1;
    unsigned long count = 0;
    return static_cast<bool>(map >> inside >> outside >> count) && inside == 0 && outside == 0 &&
           count == 4294967295UL;
}

bool named_kind(const NamespaceOptions &options) {
    return options.kind == "named" || (options.kind == "auto" && machine_root());
}

}  // namespace

void check_can_make_namespaces(const NamespaceOptions &options) {
    (void)support::find_tool("ip", "iproute2");
    (void)support::find_tool("tc", "iproute2");
    if (options.kind == "named" && !machine_root()) {
        throw Error(SBX_UNSUPPORTED,
                    "the network injector is configured with namespace: named, which needs "
                    "the machine's root; set it to auto or user");
    }
    if (!named_kind(options)) {
        const support::UserNetwork trial;  // made and let go: the kernel allows it
    }
}

NetworkNamespace::NetworkNamespace(const NetworkPlan &plan, const NamespaceOptions &options)
    : NetworkNamespace(plan, options, next_names()) {}

NetworkNamespace::NetworkNamespace(const NetworkPlan &plan, const NamespaceOptions &options,
                                   const NetworkNames &names)
    : name_(names.netns) {
    const bool named = named_kind(options);
    const bool uplink = named && !plan.partition && !plan.offline && options.uplink;
    if (named) {
        record_.emplace(options.record_folder, names.netns,
                        uplink ? names.host_link : std::string());
        netns_ = std::make_unique<NamedNamespace>(names.netns);
        entry_ = std::make_unique<support::NetworkEntry>(netns_->path());
    } else {
        user_network_ = std::make_unique<support::UserNetwork>();
        entry_ = std::make_unique<support::NetworkEntry>(user_network_->path());
    }
    report_ = {{"namespace", name_},
               {"netns", path()},
               {"kind", named ? "named" : "user"},
               {"partition", plan.partition},
               {"safe_mode", plan.offline},
               {"latency_ms", plan.latency_ms},
               {"jitter_ms", plan.jitter_ms},
               {"loss", plan.loss},
               {"duplication", plan.duplication},
               {"rate_bits_per_s", plan.rate_bits_per_s},
               {"bandwidth", plan.rate_bits_per_s > 0 ? "tbf" : "none"},
               {"uplink", nullptr}};
    const std::string mechanism = choose_mechanism(plan, options, *entry_, report_);
    report_["impairment"] = mechanism;
    if (mechanism == "nfqueue") {
        report_["seed"] = options.seed;
    }
    if (plan.offline && !plan.partition) {
        report_["uplink"] = "none: safe_mode; upstreams are reached through fault_proxy";
    } else if (!named && !plan.partition && options.uplink) {
        report_["uplink"] =
            "none: a link to the host's namespace needs root; upstreams are "
            "reached through fault_proxy";
    }
    if (uplink) {
        uplink_ = std::make_unique<Uplink>(name_, names.host_link, options.uplink_pool);
        report_["uplink"] = {{"link", uplink_->host_link()},
                             {"host", uplink_->host_address()},
                             {"inside", uplink_->inside_address()}};
    }
    const bool netem = mechanism == "netem";
    // Loopback packets pass the egress twice per round trip, so each carries half of it.
    shape_link(entry_.get(), "lo",
               {netem, plan.latency_ms / 2, plan.jitter_ms / 2, plan.loss, plan.duplication,
                plan.rate_bits_per_s});
    if (uplink_) {
        shape_link(entry_.get(), kInsideLink,
                   {netem, plan.latency_ms, plan.jitter_ms, plan.loss, plan.duplication,
                    plan.rate_bits_per_s});
        // What comes in is limited on the host's end of the pair; it is not delayed, so
        // that a round trip through the uplink gains the latency once.
        shape_link(nullptr, uplink_->host_link(), {false, 0, 0, 0, 0, plan.rate_bits_per_s});
    }
    if (mechanism == "nfqueue") {
        queue_ = std::make_unique<PacketQueue>(
            name_, *entry_,
            PacketImpairment{plan.latency_ms, plan.jitter_ms, plan.loss, plan.duplication,
                             options.seed});
    }
}

}  // namespace sbx::network
