// One attempt is create + start; a container whose start failed is removed before the next.
#include "container_start.hpp"

#include <sbx/plugin.hpp>

#include <atomic>
#include <chrono>
#include <thread>

#include "start_gate.hpp"
#include "state_files.hpp"

namespace sbx::docker {
namespace {

// Set once the engine refused StorageOpt: later runs do not ask again.
std::atomic<bool> storage_opt_refused{false};

bool about_storage_opt(const EngineError &e) {
    const std::string message = e.what();
    return message.find("storage-opt") != std::string::npos ||
           message.find("StorageOpt") != std::string::npos ||
           message.find("storage opt") != std::string::npos;
}

void drop_storage_opt(ContainerPlan &plan, const std::string &why) {
    plan.create_body["HostConfig"].erase("StorageOpt");
    plan.enforcement["disk"] =
        "none (the engine's storage driver cannot size a container: " + why + ")";
}

// Sleeps `delay`, waking early (and throwing) when the host cancels.
void backoff(std::chrono::milliseconds delay) {
    const auto until = std::chrono::steady_clock::now() + delay;
    while (std::chrono::steady_clock::now() < until) {
        if (host::cancelled()) {
            throw Error(SBX_CANCELLED, "cancelled while waiting to retry a container start");
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

std::unique_ptr<Container> attempt(StartContext &context, ContainerPlan &plan) {
    // Held from create to started: the engine makes a few containers at a time, quickly.
    const auto pass = StartGate::process_wide().enter(
        parallel_starts_capacity(context.config.parallel_starts), [] { return host::cancelled(); });
    if (!pass) {
        throw Error(SBX_CANCELLED, "cancelled while waiting for a turn to start a container");
    }
    const std::string name = next_container_name();
    std::string id;
    try {
        id = context.api.create_container(name, plan.create_body);
    } catch (const EngineError &e) {
        if (e.failure() == EngineFailure::timeout) {
            try {  // the engine may have made it after all: its name is ours alone
                context.api.remove_container(name);
            } catch (const EngineError &) {
            }
            throw;
        }
        if (!plan.create_body["HostConfig"].contains("StorageOpt") || !about_storage_opt(e)) {
            throw;
        }
        storage_opt_refused = true;
        drop_storage_opt(plan, e.what());
        id = context.api.create_container(name, plan.create_body);
    }
    const std::string active = active_containers_path(context.state_dir);
    const auto &labels = plan.create_body["Labels"];
    register_active(
        active, id,
        {{"name", name}, {"labels", labels}, {"image", plan.create_body.value("Image", "")}});
    // Owned from here: a failed start removes it.
    auto container = std::make_unique<Container>(context.api, id, name, active, context.tally);
    context.api.start_container(id);
    return container;
}

}  // namespace

std::unique_ptr<Container> start_container(StartContext &context, ContainerPlan &plan) {
    if (storage_opt_refused && plan.create_body["HostConfig"].contains("StorageOpt")) {
        drop_storage_opt(plan, "refused earlier in this process");
    }
    const std::string image = plan.create_body.value("Image", "");
    const std::string failures = pool_failures_path(context.state_dir);
    auto delay = std::chrono::milliseconds(context.config.backoff_ms);
    for (int number = 1;; ++number) {
        const auto started = std::chrono::steady_clock::now();
        const auto seconds = [&] {
            return std::chrono::duration<double>(std::chrono::steady_clock::now() - started)
                .count();
        };
        try {
            auto container = attempt(context, plan);
            record_start_success(failures, image, seconds());
            return container;
        } catch (const EngineError &e) {
            if (e.failure() == EngineFailure::cancelled) {
                throw Error(SBX_CANCELLED, e.what());
            }
            const FailureCount count = record_start_failure(failures, image, e.what(), seconds(),
                                                            context.config.fail_threshold);
            if (count.consecutive == context.config.fail_threshold) {
                std::string warning = "image " + image;
                warning += " failed to start " + std::to_string(count.consecutive);
                warning += " times in a row (SANDBOX_POOL_FAIL_THRESHOLD); last error: ";
                warning += e.what();
                warning += "; counters in " + failures;
                host::log(SBX_LOG_WARN, warning);
            }
            // A call the engine did not answer in time is tried again too: an engine slowed
            // by a busy machine answers the next one (a run must not fail for the sandbox's
            // sake). A late start's container goes with its Container; a late create's is
            // removed by name in attempt(), and purge-stale finds one created later still.
            const bool retried = e.transient() || e.failure() == EngineFailure::timeout;
            const bool last = number >= context.config.start_attempts || !retried;
            if (last) {
                throw StartFailed(e.what(), number, retried);
            }
            host::log(SBX_LOG_INFO, "container start for image " + image + " failed (attempt " +
                                        std::to_string(number) + "): " + e.what() +
                                        "; retrying in " + std::to_string(delay.count()) + " ms");
            backoff(delay);
            delay *= 2;
        }
    }
}

}  // namespace sbx::docker
