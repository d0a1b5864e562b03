// Each exec runs the target under docker-run-init, which kills what the run left and
// empties /tmp and /dev/shm after it (the root is read-only), so the next run in the same
// container starts from the same state. Timeout in an exec: the engine has no "kill this
// exec", so the whole container goes (removed with the pool entry).
#include "run_pooled.hpp"

#include <sbx/plugin.hpp>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>

#include "command_file.hpp"
#include "result.hpp"
#include "run_once.hpp"

namespace sbx::docker {

using Clock = std::chrono::steady_clock;
using nlohmann::json;

namespace {

double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// Removes a run's file (stdin, command) from the container's folder however the run ends.
struct RunFile {
    std::string path;
    ~RunFile() {
        if (!path.empty()) {
            std::error_code ignored;
            std::filesystem::remove(path, ignored);
        }
    }
};

// Gives the container back to the pool however the run ends; unless the run proved it
// healthy, it is removed.
struct PoolLease {
    ContainerPool &pool;
    WarmContainer *warm;
    bool healthy = false;
    ~PoolLease() { pool.release(warm, healthy); }
    PoolLease(const PoolLease &) = delete;
    PoolLease &operator=(const PoolLease &) = delete;
};

json exec_body(const RunSpec &spec, const ExecutorConfig &config,
               const std::vector<std::string> &command) {
    json body = {{"Cmd", command},
                 {"Env", target_environment(spec, spec.workspace)},
                 {"WorkingDir", spec.workspace},
                 {"AttachStdin", false},
                 {"AttachStdout", true},
                 {"AttachStderr", true},
                 {"Tty", false}};
    if (!config.user.empty()) {
        body["User"] = config.user;
    }
    return body;
}

}  // namespace

json run_pooled(StartContext &context, ContainerPool &pool, const RunSpec &spec,
                const Owner &owner) {
    ContainerPlan plan =
        plan_container(spec, context.config, owner, context.config.keepalive_argv, "", true);
    json result = empty_result(spec);
    const Clock::time_point started = Clock::now();
    WarmContainer *warm = nullptr;
    try {
        warm = pool.acquire(context, plan);
    } catch (const StartFailed &e) {
        result["enforcement"] = plan.enforcement;
        put_docker_error(result, e.what(), e.attempts(), e.transient());
        result["wall_s"] = seconds_since(started);
        return result;
    }
    if (warm == nullptr) {
        result = run_once(context, spec, owner);
        result["pool"] = "full (SANDBOX_MAX_CONTAINER_COUNT): ran in a container of its own";
        return result;
    }
    PoolLease lease{pool, warm};  // before the stdin file, which lives in its folder
    result["enforcement"] = plan.enforcement;
    result["container"] = warm->container->name();
    result["pool"] = warm->execs == 0 ? "new" : "reused";

    static std::atomic<unsigned long> run_file_counter{0};
    const std::string serial = std::to_string(++run_file_counter);
    RunFile stdin_file;
    std::string stdin_path;
    if (!spec.stdin_text.empty()) {
        const std::string name = "stdin-" + serial;
        stdin_file.path = warm->io->path() + "/" + name;
        std::ofstream(stdin_file.path, std::ios::binary) << spec.stdin_text;
        stdin_path = std::string(kIoMount) + "/" + name;
    }
    std::vector<std::string> command = target_command(spec, stdin_path);
    RunFile command_file;
    if (needs_command_file(spec)) {
        const std::string name = "command-" + serial;
        command_file.path = warm->io->path() + "/" + name;
        command = command_through_file(spec, command, command_file.path,
                                       std::string(kIoMount) + "/" + name);
    }

    Ending ending;
    ending.cpu_time_limited = spec.limits.cpu_time_s > 0;
    try {
        const std::string exec_id = context.api.create_exec(
            warm->container->id(), exec_body(spec, context.config, command));
        CappedOutput out(spec.limits.output_bytes);
        CappedOutput err(spec.limits.output_bytes);
        StreamDemux demux(out, err);
        std::optional<std::chrono::milliseconds> limit;
        if (spec.limits.timeout_ms > 0) {
            limit = std::chrono::milliseconds(spec.limits.timeout_ms);
        }
        const auto oom_before = warm->usage.oom_kills();
        // A new peak for this run; a kernel that cannot reset it gives the container's.
        warm->usage.reset_memory_peak();
        const CgroupFigures usage_before = warm->usage.read();
        const Clock::time_point exec_started = Clock::now();
        try {
            context.api.start_exec(exec_id, demux, limit);
        } catch (const EngineError &e) {
            if (e.failure() != EngineFailure::timeout || !limit) {
                throw;
            }
            ending.timed_out = true;
            // The engine cannot kill one exec: the container goes with the target in it.
            context.tally.add(kForceKills);
        }
        ending.wall_s = seconds_since(exec_started);
        if (!ending.timed_out) {
            ending.exit_code = context.api.inspect_exec(exec_id).exit_code;
            if (ending.exit_code != 0 && oom_before) {
                const auto oom_after = warm->usage.oom_kills();
                ending.oom_killed = oom_after && *oom_after > *oom_before;
            }
        }
        lease.healthy = !ending.timed_out && !ending.oom_killed;
        put_ending(result, ending);
        put_usage(result, warm->usage.source(), cpu_between(usage_before, warm->usage.read()));
        // The runtime could not start the exec at all (a pids limit reached by the pool's
        // own processes, say): that is the executor failing, not the target.
        if ((ending.exit_code == 126 || ending.exit_code == 127) &&
            out.kept().rfind("OCI runtime exec failed", 0) == 0) {
            result["status"] = "XX";
            result["error"] = "docker: " + out.kept();
            result["sandbox_fault"] = true;
            lease.healthy = false;
        }
        // docker-run-init could not clean up after the run: the container is not reusable.
        if (put_helper_failure(result, ending.exit_code, err.kept())) {
            lease.healthy = false;
        }
        put_output(result, "stdout", out, spec.limits.output_bytes);
        put_output(result, "stderr", err, spec.limits.output_bytes);
    } catch (const EngineError &e) {
        if (e.failure() == EngineFailure::cancelled) {
            throw Error(SBX_CANCELLED, "run cancelled by the host; its container is removed");
        }
        put_docker_error(result, e.what(), 1, true);
        result["wall_s"] = seconds_since(started);
        return result;
    }
    return result;
}

}  // namespace sbx::docker
