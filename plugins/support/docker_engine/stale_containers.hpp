// The one sweep of this tool's containers whose host is gone, for the docker executor's
// containers and the host's image services alike. A container is this tool's when it
// carries `label`; its host is named by `<label>.host-pid` and `<label>.host-start`, written
// when it was created (a reused pid, with another start time, is not that host).
// Containers without the label, and those of a live host, are never touched.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/docker_engine/engine_api.hpp"

namespace sbx::docker {

// The labels that name this process as the host of a container it creates under `label`:
// {<label>.host-pid, <label>.host-start}.
nlohmann::json host_labels(const std::string &label);

// True when the host the labels name (under `label`) is alive.
bool host_alive(const nlohmann::json &labels, const std::string &label);

struct StaleContainer {
    std::string id;        // the engine's full id
    std::string name;      // without the leading "/"; the short id when it has none
    std::string host_pid;  // as labelled, "?" when it is not
    // "container NAME (ID12) of dead host PID", the line purge-stale prints.
    [[nodiscard]] std::string describe() const;
};

// The containers carrying `label` whose host is dead. Throws EngineError when the engine
// cannot list them.
std::vector<StaleContainer> find_stale_containers(EngineApi &api, const std::string &label);

// The same, each removed (with its anonymous volumes) unless `dry_run`. Throws EngineError
// when the engine cannot list them or refuses a removal.
std::vector<StaleContainer> sweep_stale_containers(EngineApi &api, const std::string &label,
                                                   bool dry_run);

}  // namespace sbx::docker
