// The alerts table: every alert a command raised (a session that failed or crashed, a
// plugin disabled, runs the sandbox failed, an image that would not start), and whether
// the alert command took it. Kept even when no command is set: the exporter counts them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "store/store.hpp"

namespace sbx::store {

struct AlertRecord {
    std::optional<int64_t> session_id;
    std::string kind;     // session_failed, session_crashed, plugin_disabled, ...
    std::string subject;  // what it is about: a session id, a plugin id, an image
    std::string message;
    bool delivered = false;  // the alert command ran and exited 0
    std::string error;       // why it was not delivered ("" when it was, or none is set)
};

// Inserts the alert; returns its id.
int64_t record_alert(Store &store, const AlertRecord &alert);

// What the alert command made of alert `id`: `delivered`, else `error` says why.
void settle_alert(Store &store, int64_t id, bool delivered, const std::string &error);

}  // namespace sbx::store
