// The plugin_failures table: the metrics collectors and predictors a session disabled.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/store.hpp"

namespace sbx::store {

struct PluginFailure {
    std::string id;
    std::string kind;  // metrics, predictor
    std::string path;
    std::string call;     // collect, predict
    std::string failure;  // crash, hang, garbage, memory, bad_answer, status
    std::string reason;   // the error, naming the plugin and its file
    // Where: "run 12 (workflow wf, scenario normal, on, repetition 0, phase run)".
    std::string context;
    std::optional<int64_t> run_id;
    std::string request_file;  // the request it failed on, saved ("" when it could not be)
    std::string replay;        // the `sandbox-runner plugins call ...` line that repeats it
    std::string advice;        // what its author does next
};

void record_plugin_failure(Store &store, int64_t session_id, const PluginFailure &entry);

// The session's disabled plugins, in the order they failed.
std::vector<PluginFailure> plugin_failures(Connection &connection, int64_t session_id);

}  // namespace sbx::store
