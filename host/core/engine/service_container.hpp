// A service run from a container image (`services: [{image: ...}]`), through the Docker
// Engine API client the docker executor uses too (plugins/support/docker_engine): the
// container runs the image's command on the host's network, tini as its init, the service's
// folder mounted at the same path as its working directory; its stdout and stderr are
// followed into that folder, so readiness, output and "died mid-run" work as for a program.
// It is named after the service's id and labelled with it and with its host's identity, so
// purge-stale removes it after a SIGKILLed host, by the sweep the executor's containers get.
#pragma once

#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "config/service.hpp"

namespace sbx::docker {
class EngineApi;
}

namespace sbx::engine {

// The label every service container carries, with the service's id as its value; the
// host that made it is under <label>.host-pid and <label>.host-start.
inline constexpr const char kServiceLabel[] = "sandbox-runner.service";

// "sbx-service-<id>": the container of the service with SANDBOX_SERVICE_ID `id`.
std::string service_container_name(const std::string &id);

class ServiceContainer {
  public:
    // Creates and starts `service`'s container named service_container_name(id), with
    // "{{port}}" standing for `port` and its env, SANDBOX_SERVICE_PORT and SANDBOX_SERVICE_ID
    // in its environment; its output goes to <folder>/stdout and <folder>/stderr. Never pulls:
    // a missing image fails at once. Throws ServiceError with the engine's message (no
    // engine, no image, a command the image lacks), having removed what it made.
    ServiceContainer(const config::Service &service, int port, const std::string &id,
                     const std::filesystem::path &folder);
    // Stops following the output; the container stays until remove().
    ~ServiceContainer();
    ServiceContainer(const ServiceContainer &) = delete;
    ServiceContainer &operator=(const ServiceContainer &) = delete;

    [[nodiscard]] const std::string &name() const { return name_; }
    // How it ended ("exited with 1"), or nullopt while it runs. [thread-safe]
    [[nodiscard]] std::optional<std::string> ended() const;
    // Stops it (SIGTERM, SIGKILL after `grace`) and removes it: "" when it is gone, else
    // why not (the engine is down, say).
    std::string remove(std::chrono::seconds grace) noexcept;

  private:
    void follow_output(const std::filesystem::path &folder);

    std::string service_;  // its name, for messages
    std::string name_;
    std::string id_;  // the engine's
    mutable std::mutex mutex_;
    std::unique_ptr<docker::EngineApi> api_;  // not thread-safe: under mutex_
    mutable std::optional<std::string> ended_;
    std::atomic<bool> stopping_{false};
    std::atomic<bool> followed_{false};  // the output stream ended: so did the container
    std::thread follower_;
};

// The service containers whose host is dead, removed unless `dry_run`: one line each
// ("container sbx-service-4242-1 (0123456789ab) of dead host 4242"). When the engine cannot
// be asked, nothing, and `unreachable` says why.
std::vector<std::string> sweep_service_containers(bool dry_run, std::string &unreachable);

}  // namespace sbx::engine
