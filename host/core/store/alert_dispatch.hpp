// Raising alerts: each is recorded in the alerts table and handed to the settings'
// `alert_command`, which runs with the alert as JSON in SANDBOX_ALERT, its kind in
// SANDBOX_ALERT_KIND and its message in SANDBOX_ALERT_MESSAGE (10 s at most; a failing
// command is a warning, never the command's exit code). The store raises them as it
// records what they are about: a session that ended interrupted or failed, one found
// crashed, a plugin disabled, runs the sandbox failed, an image that would not start.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "store/alert_records.hpp"
#include "store/store.hpp"

namespace sbx::store {

struct AlertHook {
    std::vector<std::string> command;  // argv; empty: alerts are only recorded
    // The executors' state folder: the docker executor counts, per image, the times an
    // image failed to start SANDBOX_POOL_FAIL_THRESHOLD times in a row (pool_failures.json).
    std::filesystem::path state_dir;
};

// Set once by the command line, before any store opens; until then alerts are recorded
// only.
void set_alert_hook(const AlertHook &hook);

// Records `alert` and hands it to the command. Never throws: an alert that cannot be
// given is a warning.
void raise_alert(Store &store, AlertRecord alert) noexcept;

// After `session` ended with `status`: session_failed (interrupted or failed),
// sandbox_errors (runs the sandbox failed, not the target), container_start_failures (an
// image newly past its threshold).
void raise_session_end_alerts(Store &store, int64_t session, const std::string &status) noexcept;

}  // namespace sbx::store
