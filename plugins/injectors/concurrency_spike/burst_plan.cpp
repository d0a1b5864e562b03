// Preset keys -> BurstPlan.
#include "burst_plan.hpp"

#include <sbx/plugin.hpp>

#include <algorithm>
#include <string>

#include "support/number_parse.hpp"
#include "support/preset_activation.hpp"

namespace sbx::concurrency_spike {
namespace {

using nlohmann::json;

std::uint32_t count(const json &preset, const char *key, std::uint32_t cap) {
    const json &value = preset.at(key);
    const std::string text = value.is_string() ? value.get<std::string>() : value.dump();
    const auto number = support::parse_uint64(text, support::LeadingPlus::refused);
    if (!number || *number > cap) {
        throw Error(SBX_INVALID, std::string(key) + ": '" + text +
                                     "' is not a whole number of threads from 0 to " +
                                     std::to_string(cap) +
                                     "; write a count such as 10, or raise the concurrency_spike "
                                     "plugin's max_threads");
    }
    return static_cast<std::uint32_t>(*number);
}

}  // namespace

BurstPlan plan_from_preset(const json &preset, std::uint32_t thread_cap) {
    BurstPlan plan;
    if (!preset.is_object()) {
        return plan;
    }
    if (support::lists_failure_mode(preset, "concurrency_spike")) {
        plan.active = true;
        plan.threads = kModeThreads;
        plan.async_tasks = kModeAsyncTasks;
    }
    if (preset.contains("THREAD_BURST")) {
        plan.threads = count(preset, "THREAD_BURST", thread_cap);
        plan.active = plan.active || plan.threads > 0;
    }
    if (preset.contains("ASYNC_TASK_BURST")) {
        plan.async_tasks = count(preset, "ASYNC_TASK_BURST", thread_cap);
        plan.active = plan.active || plan.async_tasks > 0;
    }
    plan.max_threads = thread_cap;
    if (preset.contains("MAX_THREADS")) {
        plan.max_threads = std::max<std::uint32_t>(1, count(preset, "MAX_THREADS", thread_cap));
    }
    plan.threads = std::min(plan.threads, plan.max_threads);
    if (plan.threads == 0 && plan.async_tasks == 0) {
        plan.active = false;  // listed, but both counts set to 0: nothing to run
    }
    return plan;
}

std::uint32_t wave_size(const BurstPlan &plan) {
    if (plan.async_tasks == 0) {
        return 0;
    }
    const std::uint32_t left =
        plan.max_threads > plan.threads ? plan.max_threads - plan.threads : 0;
    return std::max<std::uint32_t>(1, std::min(plan.async_tasks, left));
}

}  // namespace sbx::concurrency_spike
