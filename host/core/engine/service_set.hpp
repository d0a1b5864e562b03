// The services of a workflow, started for a run (or a cell) and stopped after it. Each is
// an upstream of the run: the steps find it at SANDBOX_UPSTREAM_<NAME>, and with the
// fault_proxy injector the preset's upstream and network faults lie between them.
#pragma once

#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "config/service.hpp"
#include "engine/service_process.hpp"

namespace sbx::engine {

class ServiceSet {
  public:
    // Starts `services` in order, each on a free port of 127.0.0.1 and ready before the
    // next starts. Throws ServiceError naming the one that failed; those started are
    // stopped.
    ServiceSet(const std::vector<config::Service> &services,
               const std::filesystem::path &state_dir);
    ~ServiceSet();  // stops them in reverse order of start
    ServiceSet(const ServiceSet &) = delete;
    ServiceSet &operator=(const ServiceSet &) = delete;

    // Adds each service to the run spec: an upstream {name, listen: 127.0.0.1:0, target:
    // 127.0.0.1:<port>} for the injectors, and SANDBOX_UPSTREAM_<NAME> (the service itself,
    // until an injector puts a proxy in between) in its environment.
    void add_to(nlohmann::json &spec) const;
    // "service 'db' exited with 1", for the first service that has ended; "" while all run.
    [[nodiscard]] std::string ended() const;
    // {name: {port, stdout, stderr[, ended]}}: the services' last output, for the run record.
    [[nodiscard]] nlohmann::json record() const;

  private:
    std::vector<std::unique_ptr<ServiceProcess>> started_;
};

// A free TCP port on 127.0.0.1, as the kernel chooses one; throws ServiceError.
int free_local_port();

}  // namespace sbx::engine
