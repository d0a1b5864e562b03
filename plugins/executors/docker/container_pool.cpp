// The count of pooled containers is shared by every instance in the process (each worker
// has its own executor instance and pool), so SANDBOX_MAX_CONTAINER_COUNT bounds the host.
#include "container_pool.hpp"

#include <sbx/plugin.hpp>

#include <signal.h>

#include <algorithm>
#include <atomic>
#include <cerrno>

#include "engine_connection.hpp"
#include "state_files.hpp"

namespace sbx::docker {
namespace {

using Clock = std::chrono::steady_clock;

std::atomic<std::size_t> &alive_in_process() {
    static std::atomic<std::size_t> alive{0};
    return alive;
}

// Takes one of the `cap` places for a pooled container, or says there is none. Taken
// before the container is created: workers that start containers at once (a
// concurrency_spike's copies, each with a pool of its own) cannot all pass a check made
// before any of them counted its container.
bool reserve_place(std::size_t cap) {
    auto &alive = alive_in_process();
    std::size_t now = alive.load();
    while (now < cap) {
        if (alive.compare_exchange_weak(now, now + 1)) {
            return true;
        }
    }
    return false;
}

double seconds_between(Clock::time_point from, Clock::time_point to) {
    return std::chrono::duration<double>(to - from).count();
}

// "; it said: LINE", the last line an agent that did not connect wrote (its own failures
// print one), or "" when there is none.
std::string agent_last_words(EngineApi &api, const std::string &container_id) {
    CappedOutput out(4096);
    CappedOutput err(4096);
    StreamDemux demux(out, err);
    try {
        api.read_logs(container_id, demux);
    } catch (const EngineError &) {
        return "";
    }
    std::string said = err.kept().empty() ? out.kept() : err.kept();
    while (!said.empty() && said.back() == '\n') {
        said.pop_back();
    }
    const auto line_start = said.rfind('\n');
    said = line_start == std::string::npos ? said : said.substr(line_start + 1);
    return said.empty() ? "" : "; it said: " + said;
}

// A container idle for longer than this is inspected before it is reused: it may have
// been killed or removed behind the pool's back.
constexpr double kHealthCheckAfterIdleS = 2.0;

}  // namespace

ContainerPool::ContainerPool(const ExecutorConfig &config, CleanupTally &tally)
    : config_(config), tally_(tally) {}

ContainerPool::~ContainerPool() {
    if (reaper_.joinable()) {
        {
            std::lock_guard<std::mutex> guard(reaper_mutex_);
            stopping_ = true;
        }
        reaper_wake_.notify_all();
        reaper_.join();
    }
    std::lock_guard<std::mutex> guard(mutex_);
    alive_in_process() -= warm_.size();
    warm_.clear();  // each Container removes its container, then its folder goes
}

std::size_t ContainerPool::size() {
    std::lock_guard<std::mutex> guard(mutex_);
    return warm_.size();
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
    if (warm.agent) {
        return warm.agent->alive();  // a dead agent, a container killed or removed: no call
    }
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

ContainerPool::Taken ContainerPool::take_expired() {
    const auto now = Clock::now();
    Taken expired;
    std::size_t idle_count = 0;
    for (auto entry = warm_.begin(); entry != warm_.end();) {
        const auto &warm = *entry;
        const bool idle = !warm->busy && config_.idle_timeout_s > 0 &&
                          seconds_between(warm->last_used, now) > config_.idle_timeout_s;
        const bool old = !warm->busy && config_.max_lifetime_s > 0 &&
                         seconds_between(warm->container->created(), now) > config_.max_lifetime_s;
        if (!idle && !old) {
            ++entry;
            continue;
        }
        host::log(SBX_LOG_DEBUG, "removing pooled container " + warm->container->name() +
                                     (idle ? " (idle)" : " (max lifetime)"));
        idle_count += idle ? 1 : 0;  // one reason per container: idle wins when both hold
        expired.push_back(std::move(*entry));
        entry = warm_.erase(entry);
        --alive_in_process();
    }
    if (idle_count > 0) {
        tally_.add(kCleanupIdle, static_cast<double>(idle_count));
    }
    if (expired.size() > idle_count) {
        tally_.add(kCleanupLifetime, static_cast<double>(expired.size() - idle_count));
    }
    return expired;
}

void ContainerPool::remove_expired(Taken expired) {
    if (expired.empty()) {
        return;
    }
    const auto started = Clock::now();
    expired.clear();
    tally_.set(kCleanupDuration, seconds_between(started, Clock::now()));
}

void ContainerPool::start_reaper() {
    if (reaper_.joinable() || config_.cleanup_interval_s <= 0) {
        return;
    }
    const std::chrono::milliseconds deadline(config_.call_timeout_ms);
    reaper_api_ =  // the reaper removes, never makes, containers
        connect_engine(deadline, deadline);
    reaper_ = std::thread([this] { reaper_loop(); });
}

void ContainerPool::reaper_loop() {
    const auto interval = std::chrono::duration<double>(config_.cleanup_interval_s);
    std::unique_lock<std::mutex> lock(reaper_mutex_);
    while (!reaper_wake_.wait_for(lock, interval, [this] { return stopping_; })) {
        lock.unlock();
        Taken expired;
        {
            std::lock_guard<std::mutex> guard(mutex_);
            expired = take_expired();
        }
        for (auto &warm : expired) {
            warm->container->use_api(*reaper_api_);
        }
        // Removed outside the pool's lock: a run may acquire meanwhile.
        remove_expired(std::move(expired));
        lock.lock();
    }
}

WarmContainer *ContainerPool::acquire(StartContext &context, ContainerPlan &plan) {
    std::lock_guard<std::mutex> guard(mutex_);
    remove_expired(take_expired());
    for (const auto &warm : warm_) {
        if (warm->busy || warm->key != plan.pool_key) {
            continue;
        }
        if (!healthy(context, *warm)) {
            host::log(SBX_LOG_INFO, "pooled container " + warm->container->name() +
                                        (warm->agent ? " lost its agent; replacing it"
                                                     : " failed its health check"));
            tally_.add(kCleanupUnhealthy);
            discard(warm.get());
            break;  // the loop's iterator is gone; make a fresh one below
        }
        warm->busy = true;
        return warm.get();
    }
    if (!reserve_place(config_.max_containers)) {
        tally_.add(kLimitReached);
        // Make room with this pool's oldest idle container, if it has one.
        const auto idle =
            std::find_if(warm_.begin(), warm_.end(), [](const auto &warm) { return !warm->busy; });
        if (idle == warm_.end()) {
            return nullptr;
        }
        discard(idle->get());  // gives its place back
        if (!reserve_place(config_.max_containers)) {
            return nullptr;  // another worker took the place meanwhile
        }
    }
    // The place is ours until the container is in warm_ (then discard gives it back).
    std::unique_ptr<WarmContainer> warm;
    try {
        if (config_.pool_agent && !agent_failed_) {
            try {
                warm = start_warm(context, plan, true);
            } catch (const AgentLost &e) {
                agent_failed_ = true;
                host::log(SBX_LOG_WARN, std::string("a pooled container's agent did not start: ") +
                                            e.what() +
                                            "; this pool's runs go through execs from now on "
                                            "(pool_transport: exec)");
            }
        }
        if (!warm) {
            warm = start_warm(context, plan, false);
        }
    } catch (const EngineError &e) {
        --alive_in_process();
        if (e.failure() == EngineFailure::cancelled) {
            throw Error(SBX_CANCELLED, "cancelled while a pooled container started");
        }
        throw StartFailed(e.what(), 1, true);
    } catch (...) {
        --alive_in_process();
        throw;
    }
    warm->key = plan.pool_key;
    warm->last_used = Clock::now();
    warm->busy = true;
    ++creations_;
    warm_.push_back(std::move(warm));
    start_reaper();
    return warm_.back().get();
}

std::unique_ptr<WarmContainer> ContainerPool::start_warm(StartContext &context, ContainerPlan &plan,
                                                         bool with_agent) {
    auto warm = std::make_unique<WarmContainer>();
    warm->io = std::make_unique<ScopedFolder>(docker_state_folder(context.state_dir) + "/io");
    ContainerPlan shaped = plan;
    std::unique_ptr<AgentListener> listener;
    if (with_agent) {
        listener = std::make_unique<AgentListener>(warm->io->path());
        serve_through_agent(shaped, std::string(kIoMount) + "/" + kAgentSocketName);
    }
    shaped.create_body["HostConfig"]["Binds"].push_back(warm->io->path() + ":" + kIoMount + ":ro");
    warm->container = start_container(context, shaped);
    plan.enforcement = shaped.enforcement;
    const auto state =
        context.api.inspect_container(warm->container->id()).value("State", nlohmann::json());
    warm->usage = CgroupUsage::of_process(state.value("Pid", 0L));
    if (listener) {
        // The engine reports the main process's pid, in this machine's PID namespace when
        // it shares it (a rootless engine's too): its end is noticed at once. When the pid
        // is not ours to see, the engine is asked, every tenth time.
        long pid = state.value("Running", false) ? state.value("Pid", 0L) : -1;
        unsigned asked = 0;
        const auto running = [&context, &warm, &pid, &asked] {
            if (pid > 0 && (::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM)) {
                return true;
            }
            if (pid < 0 || (pid == 0 && asked++ % 10 != 0)) {
                return pid == 0;
            }
            try {
                const auto now = context.api.inspect_container(warm->container->id())
                                     .value("State", nlohmann::json());
                pid = now.value("Running", false) ? 0 : -1;  // 0: running, pid unseen here
            } catch (const EngineError &) {
                pid = -1;
            }
            return pid == 0;
        };
        try {
            warm->agent =
                listener->accept(std::chrono::milliseconds(config_.call_timeout_ms), running);
        } catch (const AgentLost &e) {
            throw AgentLost(e.what() + agent_last_words(context.api, warm->container->id()));
        }
    }
    return warm;
}

void ContainerPool::release(WarmContainer *warm, bool healthy) {
    std::lock_guard<std::mutex> guard(mutex_);
    if (!healthy) {
        discard(warm);
        return;
    }
    warm->busy = false;
    warm->last_used = Clock::now();
    ++warm->execs;
}

}  // namespace sbx::docker
