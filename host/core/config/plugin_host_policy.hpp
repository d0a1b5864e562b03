// `plugin_host:` of sandbox_settings.yaml: where a plugin's code runs and how long a call
// may take: in the host's process (fast, trusted: the built-in plugins) or in a child
// sbx-plugin-host (a crash, a hang or garbage is an error naming the plugin, never the
// host's end). The settings' own type, so config/ needs nothing of the plugin loader above
// it; plugins/isolation_policy.hpp adds what a call's deadline is.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>

namespace sbx::config {

enum class Isolation : uint8_t { in_process, process };

// What applies to one plugin's calls.
struct CallPolicy {
    Isolation isolation = Isolation::in_process;
    // Set by `call_deadline_s` (for every plugin, or this one in `overrides`): every call
    // but an executor's `run` (whose deadline is the run's own timeout plus this) must
    // answer within it; 0 means none. Unset: each call's own default
    // (plugins::deadline_of).
    std::optional<std::chrono::milliseconds> deadline;
    // A crashed isolated plugin is started again for the next call, this many times per
    // instance; then its calls fail at once.
    int restarts = 3;
    // true: a crash ends the command (exit 3); false: the call fails, and the run or cell
    // that made it records the failure (an optional plugin is disabled) and the command
    // goes on.
    bool stop_on_crash = false;
    // The isolated plugin process's data limit (RLIMIT_DATA) in bytes; 0: none.
    uint64_t memory_bytes = 0;
};

// Rationale: 1 GiB holds any honest collector, predictor or stub strategy many times over;
// a leak reaches it in seconds and ends as a named error instead of the machine's swap.
// Executors and injectors get no default limit: the processes they start (the target) would
// inherit it, and a sandbox must not change how the target behaves.
constexpr uint64_t kDefaultPluginMemoryBytes = uint64_t{1024} * 1024 * 1024;

// True for the kinds that get kDefaultPluginMemoryBytes.
inline bool gets_default_memory_limit(const std::string &kind) {
    return kind == "metrics" || kind == "predictor" || kind == "stub";
}

// `plugin_host:` as written: a mode for all, a default policy, and per-plugin overrides.
struct IsolationPolicy {
    // automatic: the host's own plugins in process, every other file isolated.
    enum class Mode : uint8_t { automatic, process, in_process } mode = Mode::automatic;
    CallPolicy defaults;
    // `plugin_host.memory_mb`: the limit of every isolated plugin of a kind that
    // gets_default_memory_limit (0: none).
    uint64_t memory_bytes = kDefaultPluginMemoryBytes;
    std::map<std::string, Isolation> isolation_of;                 // by plugin id
    std::map<std::string, std::chrono::milliseconds> deadline_of;  // by plugin id
    std::map<std::string, uint64_t> memory_of;                     // by plugin id, any kind
    // `overrides.ID.path`: the file that provides ID when several do.
    std::map<std::string, std::filesystem::path> path_of;

    // The policy of plugin `id` of `kind` ("" before its description is known); `trusted`
    // when its file is in one of the host's own plugin directories.
    [[nodiscard]] CallPolicy for_plugin(const std::string &id, bool trusted,
                                        const std::string &kind = "") const {
        CallPolicy policy = defaults;
        policy.memory_bytes = gets_default_memory_limit(kind) ? memory_bytes : 0;
        if (const auto found = memory_of.find(id); found != memory_of.end()) {
            policy.memory_bytes = found->second;
        }
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

}  // namespace sbx::config
