// What the network injector should do for one preset: read from the preset's keys with the
// units the host accepts (docs/configuration.md "Units"), refusing anything else with SBX_INVALID.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace sbx::network {

struct NetworkPlan {
    bool active = false;     // some network key or failure mode is set
    bool partition = false;  // network_partition: only loopback, no way out
    // The spec's safe_mode: no uplink either, but fault_proxy's upstream proxies may listen
    // inside (unlike a partition); with no network key set the run gets the namespace alone.
    bool offline = false;
    double latency_ms = 0;       // added round-trip time
    double jitter_ms = 0;        // ± on that round-trip time, uniform
    double loss = 0;             // fraction of packets dropped, per packet
    double duplication = 0;      // fraction of packets sent twice
    double rate_bits_per_s = 0;  // bandwidth cap; 0: none

    // Delay, jitter, loss or duplication: work for netem or the NFQUEUE helper.
    [[nodiscard]] bool impairs_packets() const {
        return latency_ms > 0 || jitter_ms > 0 || loss > 0 || duplication > 0;
    }
};

// Reads NETWORK_LATENCY_MS, NETWORK_JITTER_MS (milliseconds, a bare number), PACKET_LOSS,
// PACKET_DUPLICATION (0.05 or "5%"), BANDWIDTH_LIMIT, MAX_BANDWIDTH, MIN_BANDWIDTH
// (kbps/mbps/gbps, decimal bits; the cap is BANDWIDTH_LIMIT, else MAX_BANDWIDTH, else
// MIN_BANDWIDTH) and FAILURE_MODES (network, network_partition). Throws sbx::Error
// (SBX_INVALID) naming the key and what to write instead.
NetworkPlan plan_from_preset(const nlohmann::json &preset);

}  // namespace sbx::network
