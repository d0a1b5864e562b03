// The count of pooled containers is shared by every instance in the process (each worker
// has its own executor instance and pool), so SANDBOX_MAX_CONTAINER_COUNT bounds the host.
#include "container_pool.hpp"

#include <sbx/plugin.hpp>

#include <algorithm>
#include <atomic>

#include "state_files.hpp"

namespace sbx::docker {
namespace {

using Clock = std::chrono::steady_clock;

std::atomic<std::size_t> &alive_in_process() {
    static std::atomic<std::size_t> alive{0};
    return alive;
}

double seconds_between(Clock::time_point from, Clock::time_point to) {
    return std::chrono::duration<double>(to - from).count();
}

// A container idle for longer than this is inspected before it is reused: it may have
// been killed or removed behind the pool's back.
constexpr double kHealthCheckAfterIdleS = 2.0;

}  // namespace

ContainerPool::~ContainerPool() {
    alive_in_process() -= warm_.size();
    warm_.clear();  // each Container removes its container, then its folder goes
}

void ContainerPool::discard(WarmContainer *warm) {
    const auto found = std::find_if(warm_.begin(), warm_.end(),
                                    [warm](const auto &entry) { return entry.get() == warm; });
    if (found != warm_.end()) {
        warm_.erase(found);
        --alive_in_process();
    }
}

bool ContainerPool::healthy(StartContext &context, WarmContainer &warm) {
    if (seconds_between(warm.last_used, Clock::now()) < kHealthCheckAfterIdleS) {
        return true;
    }
    try {
        const auto state =
            context.api.inspect_container(warm.container->id()).value("State", nlohmann::json());
        return state.value("Running", false) && !state.value("OOMKilled", false);
    } catch (const EngineError &) {
        return false;
    }
}

void ContainerPool::reap(StartContext &context) {
    (void)context;
    const auto now = Clock::now();
    std::vector<WarmContainer *> expired;
    std::size_t idle_count = 0;
    for (const auto &warm : warm_) {
        if (warm->busy) {
            continue;
        }
        const bool idle = config_.idle_timeout_s > 0 &&
                          seconds_between(warm->last_used, now) > config_.idle_timeout_s;
        const bool old = config_.max_lifetime_s > 0 &&
                         seconds_between(warm->container->created(), now) > config_.max_lifetime_s;
        if (idle || old) {
            host::log(SBX_LOG_DEBUG, "removing pooled container " + warm->container->name() +
                                         (idle ? " (idle)" : " (max lifetime)"));
            expired.push_back(warm.get());
            idle_count += idle ? 1 : 0;
        }
    }
    if (expired.empty()) {
        return;
    }
    // One reason per container: idle wins when both hold.
    if (idle_count > 0) {
        tally_.add(kCleanupIdle, static_cast<double>(idle_count));
    }
    if (expired.size() > idle_count) {
        tally_.add(kCleanupLifetime, static_cast<double>(expired.size() - idle_count));
    }
    for (auto *warm : expired) {
        discard(warm);
    }
    tally_.set(kCleanupDuration, seconds_between(now, Clock::now()));
}

WarmContainer *ContainerPool::acquire(StartContext &context, ContainerPlan &plan) {
    reap(context);
    for (const auto &warm : warm_) {
        if (warm->busy || warm->key != plan.pool_key) {
            continue;
        }
        if (!healthy(context, *warm)) {
            host::log(SBX_LOG_INFO,
                      "pooled container " + warm->container->name() + " failed its health check");
            tally_.add(kCleanupUnhealthy);
            discard(warm.get());
            break;  // the loop's iterator is gone; make a fresh one below
        }
        warm->busy = true;
        return warm.get();
    }
    if (alive_in_process() >= config_.max_containers) {
        tally_.add(kLimitReached);
        // Make room with this pool's oldest idle container, if it has one.
        const auto idle =
            std::find_if(warm_.begin(), warm_.end(), [](const auto &warm) { return !warm->busy; });
        if (idle == warm_.end()) {
            return nullptr;
        }
        discard(idle->get());
    }
    auto warm = std::make_unique<WarmContainer>();
    warm->io = std::make_unique<ScopedFolder>(docker_state_folder(context.state_dir) + "/io");
    plan.create_body["HostConfig"]["Binds"].push_back(warm->io->path() + ":" + kIoMount + ":ro");
    warm->container = start_container(context, plan);
    warm->key = plan.pool_key;
    const auto state =
        context.api.inspect_container(warm->container->id()).value("State", nlohmann::json());
    if (plan.create_body["HostConfig"].contains("Memory")) {
        warm->oom = std::make_unique<OomCounter>(state.value("Pid", 0L));
    }
    warm->usage = CgroupUsage::of_process(state.value("Pid", 0L));
    warm->last_used = Clock::now();
    warm->busy = true;
    ++creations_;
    ++alive_in_process();
    warm_.push_back(std::move(warm));
    return warm_.back().get();
}

void ContainerPool::release(WarmContainer *warm, bool healthy) {
    if (!healthy) {
        discard(warm);
        return;
    }
    warm->busy = false;
    warm->last_used = Clock::now();
    ++warm->execs;
}

}  // namespace sbx::docker
