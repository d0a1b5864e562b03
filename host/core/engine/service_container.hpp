// A service run from a container image (`services: [{image: ...}]`): the docker CLI runs it
// in the foreground, so the service's process is the CLI and everything else (readiness,
// logs, "died mid-run", the stop) works as for a program of the host. The container is
// named after the service's id and labelled with it, so a stop that the CLI could not pass
// on, and purge-stale after a SIGKILLed host, remove it by name.
#pragma once

#include <string>
#include <vector>

#include "config/service.hpp"

namespace sbx::engine {

// "sbx-service-<id>": the container of the service with SANDBOX_SERVICE_ID `id`.
std::string service_container_name(const std::string &id);

// The docker CLI's argv (program first, found in PATH) that runs `service` from its image
// on the host's network, with tini as its init (a server as PID 1 ignores SIGTERM), its
// folder mounted at the same path as its working directory, and its env, the port and the
// id passed by name from the CLI's environment. Never pulls: a missing image fails the
// start at once. Throws ServiceError when the docker CLI is missing.
std::vector<std::string> service_container_argv(const config::Service &service, int port,
                                                const std::string &id, const std::string &folder);

// Removes the container `name` (docker rm -f), running or not; waits up to 30 s. Returns
// "" when it is gone (or never existed), else what docker said.
std::string remove_service_container(const std::string &name);

}  // namespace sbx::engine
