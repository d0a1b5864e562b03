// The executor's two state files under <state_dir>/docker/: the active container ids (so
// sweep() finds a SIGKILLed host's containers even without asking for labels) and the
// per-image start failure counters. Both are JSON objects rewritten atomically under an
// flock, because every worker's instance, and other hosts, share them.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "support/locked_json_file.hpp"

namespace sbx::docker {

// <state_dir>/docker, created on demand.
std::string docker_state_folder(const std::string &state_dir);

// flock + rename read-modify-write, shared with the other executors.
using support::read_json_file;
using support::update_json_file;

// SANDBOX_ACTIVE_CONTAINERS, else <state_dir>/docker/active_containers.json.
std::string active_containers_path(const std::string &state_dir);
// <state_dir>/docker/pool_failures.json.
std::string pool_failures_path(const std::string &state_dir);

// Records a container as active (id → owner pid/start, name, label, created).
void register_active(const std::string &path, const std::string &id, const nlohmann::json &entry);
void unregister_active(const std::string &path, const std::string &id);

struct FailureCount {
    std::uint64_t failures = 0;     // every failed attempt, ever
    std::uint64_t consecutive = 0;  // since the image's last successful start
};
// Per image in pool_failures.json: `failures`, `consecutive`, `last_error`, `last_failure`
// (Unix time), `successes`, `last_seconds` (how long the last attempt took) and `alerts`
// (the times `consecutive` reached the threshold: the host raises an alert for each). The
// exporter's container_creation_* gauges read them.
//
// Counts a failed start of `image` that took `seconds` (with the engine's message) and
// returns the counts; reaching `threshold` in a row counts an alert.
FailureCount record_start_failure(const std::string &path, const std::string &image,
                                  const std::string &message, double seconds,
                                  std::uint64_t threshold);
// Counts a successful start that took `seconds`, and resets the consecutive count.
void record_start_success(const std::string &path, const std::string &image, double seconds);

}  // namespace sbx::docker
