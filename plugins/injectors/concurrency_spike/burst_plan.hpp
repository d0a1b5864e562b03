// What a preset asks of the concurrency_spike injector: competing threads and waves of
// short tasks, within a thread budget. Strict whole numbers; anything else is refused.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>

namespace sbx::concurrency_spike {

struct BurstPlan {
    bool active = false;
    std::uint32_t threads = 0;      // THREAD_BURST: threads competing for the whole run
    std::uint32_t async_tasks = 0;  // ASYNC_TASK_BURST: short tasks started together, per wave
    // MAX_THREADS: the most threads the burst may have alive at once; the competing threads
    // come first, waves are cut down to what is left (at least one task).
    std::uint32_t max_threads = 0;
};

// Defaults when `concurrency_spike` is listed without the keys: the canonical low profile
// (docs/semantics.md, "Canonical presets").
constexpr std::uint32_t kModeThreads = 10;
constexpr std::uint32_t kModeAsyncTasks = 20;

// Reads THREAD_BURST, ASYNC_TASK_BURST, MAX_THREADS and FAILURE_MODES. Counts above
// `thread_cap` (the plugin's `max_threads` setting) are refused rather than truncated, so
// 2000000000 never becomes that many threads. Throws sbx::Error(SBX_INVALID) naming the key.
BurstPlan plan_from_preset(const nlohmann::json &preset, std::uint32_t thread_cap);

// The wave size the budget allows.
std::uint32_t wave_size(const BurstPlan &plan);

}  // namespace sbx::concurrency_spike
