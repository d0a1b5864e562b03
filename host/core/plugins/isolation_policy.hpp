// How long a plugin call may take under its CallPolicy (config/plugin_host_policy.hpp, the
// `plugin_host:` settings): the loader's side of the policy, which knows the calls.
#pragma once

#include <chrono>
#include <optional>

#include "config/plugin_host_policy.hpp"
#include "plugins/plugin_call.hpp"

namespace sbx::plugins {

using config::CallPolicy;
using config::gets_default_memory_limit;
using config::Isolation;
using config::IsolationPolicy;
using config::kDefaultPluginMemoryBytes;

// Rationale: a metrics collector or a predictor answers from numbers at hand, in
// milliseconds; 10 s is a hang. A setup or teardown (an injector's prepare, a stub's
// inputs for a whole cell, loading a plugin) may wait on the machine: a minute.
constexpr std::chrono::milliseconds kQuickCallDeadline{10000};
constexpr std::chrono::milliseconds kSetupDeadline{60000};

// How long `call` may take under `policy` before the plugin is killed (0: no limit).
inline std::chrono::milliseconds deadline_of(const CallPolicy &policy,
                                             std::optional<PluginCall> call) {
    if (policy.deadline) {
        return *policy.deadline;
    }
    return call == PluginCall::collect || call == PluginCall::predict ? kQuickCallDeadline
                                                                      : kSetupDeadline;
}

}  // namespace sbx::plugins
