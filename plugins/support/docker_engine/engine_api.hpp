// The Engine API calls the executor makes, typed: containers (create, start, wait, inspect,
// logs, kill, remove, list), execs (create, start, inspect) and ping. Each has its own
// deadline; errors are EngineError with the engine's own message.
#pragma once

#include <chrono>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "support/docker_engine/engine_client.hpp"
#include "support/docker_engine/stream_demux.hpp"

namespace sbx::docker {

// How a container or an exec ended, as the engine tells it.
struct EngineExit {
    long exit_code = 0;
    bool oom_killed = false;
};

class EngineApi {
  public:
    // `call_timeout`: the deadline of every call that neither waits for the target nor makes
    // a container; `start_timeout`: that of create and start, the engine's real work.
    // `cancelled` is polled by the calls that may be cancelled (not kill and remove).
    EngineApi(EngineEndpoint endpoint, std::chrono::milliseconds call_timeout,
              std::chrono::milliseconds start_timeout, CancelCheck cancelled = {});

    void ping();
    // Returns the new container's id. `config` is the create body (Image, Cmd, HostConfig...).
    std::string create_container(const std::string &name, const nlohmann::json &config);
    void start_container(const std::string &id);
    // Blocks until the container exits, or throws EngineError(timeout) after `limit`
    // (std::nullopt: no limit but cancellation).
    long wait_container(const std::string &id, std::optional<std::chrono::milliseconds> limit);
    nlohmann::json inspect_container(const std::string &id);
    // Reads the container's stdout and stderr (stopped containers only: no follow).
    void read_logs(const std::string &id, StreamDemux &demux);
    // Reads them from the start and as they come, until the container stops (or the call is
    // cancelled).
    void follow_logs(const std::string &id, StreamDemux &demux);
    // SIGTERM, then SIGKILL after `grace`; a container that is gone or stopped already is not
    // an error.
    void stop_container(const std::string &id, std::chrono::seconds grace);
    void kill_container(const std::string &id);
    // Force-removes, with its anonymous volumes; a container already gone is not an error.
    void remove_container(const std::string &id);
    // Containers (running or not) carrying label `label` (a key, or key=value).
    std::vector<nlohmann::json> list_containers(const std::string &label);
    // The engine's system information (GET /info): CgroupDriver, CgroupVersion, ...
    nlohmann::json info();

    std::string create_exec(const std::string &container_id, const nlohmann::json &config);
    // Runs the exec attached, demultiplexing its output until it ends or `limit` passes.
    void start_exec(const std::string &exec_id, StreamDemux &demux,
                    std::optional<std::chrono::milliseconds> limit);
    EngineExit inspect_exec(const std::string &exec_id);

    [[nodiscard]] const EngineEndpoint &endpoint() const { return client_.endpoint(); }

  private:
    std::chrono::milliseconds unbounded(std::optional<std::chrono::milliseconds> limit) const;
    EngineClient client_;
    std::chrono::milliseconds call_timeout_;
    std::chrono::milliseconds start_timeout_;
};

}  // namespace sbx::docker
