// What a preset asks of the disk: corrupted writes, a disk that fills up, a slow disk. Read
// from the preset's FAILURE_MODES and keys, checked strictly (a wrong value is SBX_INVALID
// naming the key), so that every run and the probe agree.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace sbx::disk_corruption {

// The corruption rate's key: in a preset, and in the environment a run's spec carries.
constexpr const char kRateKey[] = "SANDBOX_CORRUPTION_RATE";

// The plugin's defaults, from its configuration.
struct DiskDefaults {
    double rate = 0.01;              // corruption, when the preset sets no rate
    long long full_after = 65536;    // bytes, when disk_full is listed without DISK_FULL_AFTER
    long long write_delay_ms = 200;  // when slow_disk is listed without DISK_WRITE_DELAY_MS
    long long slow_writes = 20;      // writes per process that get the delay
};

struct DiskPlan {
    bool corrupt = false;
    double rate = 0;
    bool full = false;
    long long full_after = -1;  // bytes a process may write before ENOSPC; -1: never full
    bool slow = false;
    long long write_delay_ms = 0;
    long long slow_writes = 0;
    [[nodiscard]] bool active() const { return corrupt || full || slow; }
};

// The plan for one run. `repetition` is the run's 0-based place in its cell (-1 outside one):
// repetition 0 finds the disk full from its first byte, where the fault cannot be missed.
// `env_rate` is a SANDBOX_CORRUPTION_RATE the spec's environment already carries (null if
// none), used when the preset sets none.
DiskPlan plan_from_preset(const nlohmann::json &preset, const nlohmann::json &env_rate,
                          const DiskDefaults &defaults, long long repetition);

// The preset keys and failure modes this injector makes: its probe's claims.
nlohmann::json disk_claims(const nlohmann::json &preset);

// A fraction in [0, 1]: a number, or text such as "0.01" or "1%"; SBX_INVALID naming `where`.
double parse_rate(const nlohmann::json &value, const std::string &where);
// The shortest text that reads back as `rate` ("0.05", not "0.050000000000000003").
std::string rate_text(double rate);

}  // namespace sbx::disk_corruption
