// Where a plugin's code runs and how long a call may take: in the host's process (fast,
// trusted: the built-in plugins) or in a child sbx-plugin-host (a crash, a hang or garbage
// is an error naming the plugin, never the host's end). Read from `plugin_host:` in
// sandbox_settings.yaml.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <string>

namespace sbx::plugins {

enum class Isolation : uint8_t { in_process, process };

// What applies to one plugin's calls.
struct CallPolicy {
    Isolation isolation = Isolation::in_process;
    // Every call but an executor's `run` (whose deadline is the run's own timeout plus
    // this) must answer within it; 0 means none.
    std::chrono::milliseconds deadline{60000};
    // A crashed isolated plugin is started again for the next call, this many times per
    // instance; then its calls fail at once.
    int restarts = 3;
    // true: a crash ends the command (exit 3); false: the call fails, and the run or cell
    // that made it records the failure and the command goes on.
    bool stop_on_crash = false;
};

// `plugin_host:` as written: a mode for all, a default policy, and per-plugin overrides.
struct IsolationPolicy {
    // automatic: the host's own plugins in process, every other file isolated.
    enum class Mode : uint8_t { automatic, process, in_process } mode = Mode::automatic;
    CallPolicy defaults;
    std::map<std::string, Isolation> isolation_of;                 // by plugin id
    std::map<std::string, std::chrono::milliseconds> deadline_of;  // by plugin id

    // The policy of plugin `id`; `trusted` when its file is in one of the host's own
    // plugin directories.
    [[nodiscard]] CallPolicy for_plugin(const std::string &id, bool trusted) const {
        CallPolicy policy = defaults;
        switch (mode) {
            case Mode::automatic:
                policy.isolation = trusted ? Isolation::in_process : Isolation::process;
                break;
            case Mode::process:
                policy.isolation = Isolation::process;
                break;
            case Mode::in_process:
                policy.isolation = Isolation::in_process;
                break;
        }
        if (const auto found = isolation_of.find(id); found != isolation_of.end()) {
            policy.isolation = found->second;
        }
        if (const auto found = deadline_of.find(id); found != deadline_of.end()) {
            policy.deadline = found->second;
        }
        return policy;
    }
};

}  // namespace sbx::plugins
