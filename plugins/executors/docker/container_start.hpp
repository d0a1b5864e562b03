// Creating and starting a container, retried with exponential backoff when the engine
// fails in a way that may pass (unreachable, 5xx); counted per image in
// pool_failures.json, with a warning at the threshold. A refusal (no such image, a bad
// limit) is not retried: it will not pass.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>

#include "config.hpp"
#include "container.hpp"
#include "container_plan.hpp"
#include "support/docker_engine/engine_api.hpp"

namespace sbx::docker {

// The last attempt failed; what() is the engine's message (diagnostics.docker_error).
// `transient`: a failure that may pass (unreachable, 5xx, no answer in time), a sandbox
// fault; otherwise a refusal (no such image, a bad limit) that a rerun would meet again.
class StartFailed : public std::runtime_error {
  public:
    StartFailed(const std::string &message, int attempts, bool transient)
        : std::runtime_error(message), attempts_(attempts), transient_(transient) {}
    [[nodiscard]] int attempts() const { return attempts_; }
    [[nodiscard]] bool transient() const { return transient_; }

  private:
    int attempts_;
    bool transient_;
};

struct StartContext {
    EngineApi &api;
    const ExecutorConfig &config;
    std::string state_dir;
    CleanupTally &tally;  // the instance's cleanup counters
};

// Creates and starts a container from `plan` (updating plan.enforcement when the engine
// cannot size the container's disk). Throws StartFailed after the last attempt, or
// sbx::Error(SBX_CANCELLED) when the host cancels during a backoff.
std::unique_ptr<Container> start_container(StartContext &context, ContainerPlan &plan);

}  // namespace sbx::docker
