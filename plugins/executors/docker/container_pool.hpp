// Warm containers kept running (the keep-alive command) and reused through exec by runs
// whose plans share a pool key. Idle and over-age containers are reaped at each acquire;
// the pool's destruction removes all of them (end of a command, SIGINT/SIGTERM: the host
// cancels, unwinds and destroys its executor instances).
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "cgroup_usage.hpp"
#include "container.hpp"
#include "container_plan.hpp"
#include "container_start.hpp"
#include "oom_counter.hpp"

namespace sbx::docker {

struct WarmContainer {
    std::unique_ptr<ScopedFolder> io;  // mounted at kIoMount; outlives the container
    std::unique_ptr<Container> container;
    std::string key;
    std::unique_ptr<OomCounter> oom;  // the container's memory cgroup counter
    CgroupUsage usage;                // its CPU time and memory peak
    std::chrono::steady_clock::time_point last_used;
    unsigned long execs = 0;
    bool busy = false;
};

class ContainerPool {
  public:
    // `tally` counts what the pool removes and why; it must outlive the pool.
    ContainerPool(const ExecutorConfig &config, CleanupTally &tally)
        : config_(config), tally_(tally) {}
    ~ContainerPool();
    ContainerPool(const ContainerPool &) = delete;
    ContainerPool &operator=(const ContainerPool &) = delete;

    // A healthy idle container for `plan`, or a new one (throws StartFailed); nullptr when
    // SANDBOX_MAX_CONTAINER_COUNT containers are alive and none of this pool's is idle.
    WarmContainer *acquire(StartContext &context, ContainerPlan &plan);
    // Gives it back; `healthy` false removes it (after a timeout, an OOM kill, an error).
    void release(WarmContainer *warm, bool healthy);

    // Containers this pool has created, ever (tests count reuse with it).
    [[nodiscard]] std::size_t creations() const { return creations_; }
    [[nodiscard]] std::size_t size() const { return warm_.size(); }

  private:
    void reap(StartContext &context);
    void discard(WarmContainer *warm);
    bool healthy(StartContext &context, WarmContainer &warm);

    const ExecutorConfig &config_;
    CleanupTally &tally_;
    std::vector<std::unique_ptr<WarmContainer>> warm_;
    std::size_t creations_ = 0;
};

}  // namespace sbx::docker
