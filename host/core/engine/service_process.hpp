// One started service: its own process group and folder (its cwd, holding its `files:` and
// its stdout and stderr), and a record under <state_dir>/services so that `purge-stale`
// stops it after a crash of the host. An image service has a container instead of a process
// (engine/service_container.hpp). Stopped when it goes: the group (or the container) gets
// SIGTERM, then SIGKILL after a grace period; the folder and the record are removed.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "config/service.hpp"
#include "engine/service_error.hpp"

namespace sbx::engine {

class ServiceContainer;

class ServiceProcess {
  public:
    // Starts `service` with "{{port}}" standing for `port`. Throws ServiceError when the
    // program cannot be found or started.
    ServiceProcess(const config::Service &service, int port,
                   const std::filesystem::path &state_dir);
    ~ServiceProcess();
    ServiceProcess(const ServiceProcess &) = delete;
    ServiceProcess &operator=(const ServiceProcess &) = delete;

    [[nodiscard]] const std::string &name() const { return name_; }
    [[nodiscard]] int port() const { return port_; }
    // How the service ended ("exited with 1", "was killed by signal 9"), or nullopt while
    // it runs. Does not reap it: the process group stays addressable until the stop.
    [[nodiscard]] std::optional<std::string> ended() const;
    // The last `bytes` of what it wrote to stdout or stderr so far.
    [[nodiscard]] std::string tail(bool stderr_stream, std::size_t bytes) const;

  private:
    void stop() noexcept;

    std::string name_;
    int port_ = 0;
    pid_t pid_ = -1;
    std::filesystem::path folder_;
    std::filesystem::path record_;
    std::unique_ptr<ServiceContainer> container_;  // an image service's, else none
};

// "{{port}}" replaced by `port` in `text`.
std::string with_port(std::string text, int port);

// The program's path: as written when it has a slash (a relative one made absolute against
// the host's working directory, as the steps' programs are: a service runs in its own
// folder), else the first executable of that name in PATH; "" when there is none.
std::string program_path(const std::string &program);

}  // namespace sbx::engine
