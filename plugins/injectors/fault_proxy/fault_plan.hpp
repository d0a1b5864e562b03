// What a preset asks of the fault proxy: added latency per request, reset and hung
// connections out of every block of connections, corrupted bytes, a bandwidth and slices.
// Strict units; anything else is refused.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace sbx::fault_proxy {

struct FaultPlan {
    bool active = false;
    std::uint64_t latency_ms = 0;      // held back from the first byte of each request burst
    std::uint64_t failures = 0;        // connections reset out of every `requests`
    std::uint64_t timeouts = 0;        // connections hung out of every `requests`
    std::uint64_t requests = 20;       // the block the failures and timeouts are spread over
    double corrupt_rate = 0;           // probability that a byte upstream -> client is altered
    double bandwidth_bits_per_s = 0;   // each direction of each connection; 0: unlimited
    std::uint64_t slice_bytes = 0;     // upstream -> client sends of at most this; 0: whole
    std::uint64_t slice_delay_ms = 0;  // between two slices
};

// The most a preset may ask for; larger values are refused rather than truncated.
constexpr std::uint64_t kMaxLatencyMs = 600000;
constexpr std::uint64_t kMaxRequests = 1000000;
// Slices beyond a mebibyte are no slicing at all (the proxy buffers 64 KiB per direction).
constexpr std::uint64_t kMaxSliceBytes = std::uint64_t{1} << 20U;

// Reads API_LATENCY_MS, UPSTREAM_FAILURES, UPSTREAM_TIMEOUTS, UPSTREAM_REQUESTS,
// CORRUPT_PAYLOAD, UPSTREAM_BANDWIDTH, UPSTREAM_SLICE_BYTES, UPSTREAM_SLICE_DELAY_MS and
// FAILURE_MODES (flaky_upstream, upstream_timeout, api_latency, corrupt_payload).
// `default_corrupt_rate` is what CORRUPT_PAYLOAD as a flag means. Throws
// sbx::Error(SBX_INVALID) naming the key.
FaultPlan plan_from_preset(const nlohmann::json &preset, double default_corrupt_rate);

// The plan as the prepare response reports it.
nlohmann::json describe(const FaultPlan &plan);

}  // namespace sbx::fault_proxy
