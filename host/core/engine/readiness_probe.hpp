// Waiting for a started service to be ready, by its probe: 127.0.0.1:port accepts a TCP
// connection, answers an HTTP GET of its path below 500, or a command exits 0.
#pragma once

#include "config/service.hpp"
#include "engine/service_process.hpp"

namespace sbx::engine {

// Polls `service`'s probe until it succeeds. Throws ServiceError when the service ends
// first, `ready_timeout_ms` passes (with its last output in the message) or the probe
// command cannot be run; plugins::PluginCallError(SBX_CANCELLED) when the host is stopping.
void wait_until_ready(const config::Service &service, const ServiceProcess &process);

}  // namespace sbx::engine
