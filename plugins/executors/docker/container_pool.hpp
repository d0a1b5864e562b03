// Warm containers kept running (the agent, or the keep-alive command) and reused by runs
// whose plans share a pool key: through the agent, or through exec. Idle and over-age containers
// are removed at each acquire and by a reaper thread every cleanup_interval_s; the pool's
// destruction stops the reaper and removes every container (end of a command, SIGINT/SIGTERM: the
// host cancels, unwinds and destroys its executor instances).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "agent_client.hpp"
#include "cgroup_usage.hpp"
#include "container.hpp"
#include "container_plan.hpp"
#include "container_start.hpp"

namespace sbx::docker {

struct WarmContainer {
    std::unique_ptr<ScopedFolder> io;  // mounted at kIoMount; outlives the container
    std::unique_ptr<Container> container;
    std::string key;
    CgroupUsage usage;  // the container's cgroup: CPU time, memory peak, OOM kills
    // Its agent (pool_transport agent), or null: runs go through execs. Closed before the
    // container is removed (the agent ends with it, and the container stops).
    std::unique_ptr<AgentConnection> agent;
    std::chrono::steady_clock::time_point last_used;
    unsigned long execs = 0;
    bool busy = false;
};

// The run's thread (acquire, release) and the reaper thread share the pool: every access to
// the containers' list holds the pool's lock. A busy container is the run's alone.
class ContainerPool {
  public:
    // `tally` counts what the pool removes and why; it must outlive the pool.
    ContainerPool(const ExecutorConfig &config, CleanupTally &tally);
    ~ContainerPool();
    ContainerPool(const ContainerPool &) = delete;
    ContainerPool &operator=(const ContainerPool &) = delete;

    // A healthy idle container for `plan`, or a new one (throws StartFailed); nullptr when
    // SANDBOX_MAX_CONTAINER_COUNT containers are alive and none of this pool's is idle.
    // Starts the reaper with the first container.
    WarmContainer *acquire(StartContext &context, ContainerPlan &plan);
    // Gives it back; `healthy` false removes it (after a timeout, an OOM kill, an error).
    void release(WarmContainer *warm, bool healthy);

    // Containers this pool has created, ever (tests count reuse with it).
    [[nodiscard]] std::size_t creations() const { return creations_; }
    [[nodiscard]] std::size_t size();

  private:
    using Taken = std::vector<std::unique_ptr<WarmContainer>>;
    // Takes the idle and over-age containers out of the list (the lock held), counted by
    // reason; they are removed when the returned vector goes.
    Taken take_expired();
    // Removes what take_expired() took and records how long that took.
    void remove_expired(Taken expired);
    void discard(WarmContainer *warm);
    bool healthy(StartContext &context, WarmContainer &warm);
    // A new warm container for `plan` (its enforcement updated), with an agent when
    // `with_agent`; throws AgentLost when the agent does not connect, as start_container.
    std::unique_ptr<WarmContainer> start_warm(StartContext &context, ContainerPlan &plan,
                                              bool with_agent);
    void start_reaper();
    void reaper_loop();

    const ExecutorConfig &config_;
    CleanupTally &tally_;
    std::mutex mutex_;  // guards warm_
    std::vector<std::unique_ptr<WarmContainer>> warm_;
    std::size_t creations_ = 0;
    // An agent failed to start: this pool's later containers use execs (logged once).
    bool agent_failed_ = false;

    // The reaper removes with an engine client of its own: a client is one connection,
    // used by one thread at a time, and the run's may be held by a long exec.
    std::unique_ptr<EngineApi> reaper_api_;
    std::mutex reaper_mutex_;  // guards stopping_
    std::condition_variable reaper_wake_;
    bool stopping_ = false;
    std::thread reaper_;
};

}  // namespace sbx::docker
