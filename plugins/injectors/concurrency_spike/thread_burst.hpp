// The burst process: one helper (support/helper_process.hpp) holding THREAD_BURST threads
// that compete for the CPU and for one lock for the whole run, while its main thread starts
// waves of short tasks (threads that live about a millisecond), one wave after another.
// A separate process rather than threads of the host: it is killed whole at teardown, and
// the host's own threads (the proxy, other workers) are not what is being stressed.
#pragma once

#include <cstdint>
#include <filesystem>

#include "burst_plan.hpp"
#include "support/helper_process.hpp"

namespace sbx::concurrency_spike {

struct Burst {
    support::HelperProcess process;
    std::uint32_t threads_started = 0;  // what the burst reported once its threads ran
};

// Starts the burst and returns once its competing threads are running (at most a few
// seconds); throws sbx::Error when the process dies or does not report in time.
Burst start_burst(const BurstPlan &plan, const std::filesystem::path &state_dir);

}  // namespace sbx::concurrency_spike
