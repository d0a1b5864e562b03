// What the executor cleaned up since it last told the host: counter deltas, taken into the
// next run result's `cleanup` object or the sweep response's `counters` (docs/abi.md). Shared
// by the run's thread and the pool's reaper thread, so every call locks.
#pragma once

#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>

namespace sbx::docker {

// The counters this executor reports (names as the host's metrics exporter expects them).
inline constexpr const char kCleanupIdle[] = "cleanup_idle";            // idle timeout
inline constexpr const char kCleanupLifetime[] = "cleanup_lifetime";    // max lifetime
inline constexpr const char kCleanupUnhealthy[] = "cleanup_unhealthy";  // failed health check
inline constexpr const char kCleanupFailures[] = "cleanup_failures";    // a failed remove
inline constexpr const char kForceKills[] = "force_kills";  // killed because a run timed out
inline constexpr const char kLimitReached[] = "active_container_limit_reached";
inline constexpr const char kStaleRemoved[] = "stale_containers_removed";  // of dead hosts
// Gauges: the length of the latest pass that removed something, in seconds.
inline constexpr const char kCleanupDuration[] = "cleanup_duration_seconds_cleanup";
inline constexpr const char kReaperDuration[] = "cleanup_duration_seconds_reaper";

class CleanupTally {
  public:
    void add(const std::string &name, double amount = 1);
    // For a gauge: replaces the pending value.
    void set(const std::string &name, double value);
    // The pending deltas as a JSON object ({} when none), and forgets them.
    nlohmann::json take();

  private:
    std::mutex mutex_;
    std::map<std::string, double> pending_;
};

}  // namespace sbx::docker
