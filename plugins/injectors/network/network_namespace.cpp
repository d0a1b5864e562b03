// Order of construction: record (so a crash from here on is swept), namespace, uplink,
// queueing disciplines, NFQUEUE helper. A throw anywhere destroys what was made, in
// reverse, through the members.
#include "network_namespace.hpp"

#include <sbx/plugin.hpp>

#include "traffic_control.hpp"

namespace sbx::network {
namespace {

using nlohmann::json;

// netem or nfqueue for delay/jitter/loss/duplication; "none" when the plan has none.
std::string choose_mechanism(const NetworkPlan &plan, const NamespaceOptions &options,
                             const std::string &netns, json &report) {
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

}  // namespace

NetworkNamespace::NetworkNamespace(const NetworkPlan &plan, const NamespaceOptions &options)
    : NetworkNamespace(plan, options, next_names()) {}

NetworkNamespace::NetworkNamespace(const NetworkPlan &plan, const NamespaceOptions &options,
                                   const NetworkNames &names)
    : name_(names.netns),
      record_(options.record_folder, names.netns,
              !plan.partition && options.uplink ? names.host_link : std::string()),
      netns_(std::make_unique<NamedNamespace>(names.netns)) {
    report_ = {{"namespace", name_},
               {"netns", path()},
               {"partition", plan.partition},
               {"latency_ms", plan.latency_ms},
               {"jitter_ms", plan.jitter_ms},
               {"loss", plan.loss},
               {"duplication", plan.duplication},
               {"rate_bits_per_s", plan.rate_bits_per_s},
               {"bandwidth", plan.rate_bits_per_s > 0 ? "tbf" : "none"},
               {"uplink", nullptr}};
    const std::string mechanism = choose_mechanism(plan, options, name_, report_);
    report_["impairment"] = mechanism;
    if (mechanism == "nfqueue") {
        report_["seed"] = options.seed;
    }
    if (!plan.partition && options.uplink) {
        uplink_ = std::make_unique<Uplink>(name_, names.host_link, options.uplink_pool);
        report_["uplink"] = {{"link", uplink_->host_link()},
                             {"host", uplink_->host_address()},
                             {"inside", uplink_->inside_address()}};
    }
    const bool netem = mechanism == "netem";
    // Loopback packets pass the egress twice per round trip, so each carries half of it.
    shape_link(name_, "lo",
               {netem, plan.latency_ms / 2, plan.jitter_ms / 2, plan.loss, plan.duplication,
                plan.rate_bits_per_s});
    if (uplink_) {
        shape_link(name_, kInsideLink,
                   {netem, plan.latency_ms, plan.jitter_ms, plan.loss, plan.duplication,
                    plan.rate_bits_per_s});
        // What comes in is limited on the host's end of the pair; it is not delayed, so
        // that a round trip through the uplink gains the latency once.
        shape_link("", uplink_->host_link(), {false, 0, 0, 0, 0, plan.rate_bits_per_s});
    }
    if (mechanism == "nfqueue") {
        queue_ = std::make_unique<PacketQueue>(
            name_, path(),
            PacketImpairment{plan.latency_ms, plan.jitter_ms, plan.loss, plan.duplication,
                             options.seed});
    }
}

}  // namespace sbx::network
