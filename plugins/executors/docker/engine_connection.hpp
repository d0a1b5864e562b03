// The executor's connection to the engine: the shared client (support/docker_engine) with
// the plugin's own rules, the host's cancellation polled by every call and a bad DOCKER_HOST
// refused as the plugin's configuration error.
#pragma once

#include <chrono>
#include <memory>

#include "support/docker_engine/engine_api.hpp"

namespace sbx::docker {

// An EngineApi to DOCKER_HOST's engine whose calls end when the host cancels. Throws
// sbx::Error(SBX_INVALID) naming DOCKER_HOST when it is neither unix:// nor tcp://.
std::unique_ptr<EngineApi> connect_engine(std::chrono::milliseconds call_timeout,
                                          std::chrono::milliseconds start_timeout);

}  // namespace sbx::docker
