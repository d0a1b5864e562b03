// A run goes to the container's agent (docker-run-init --serve) over its socket, or as an
// exec that runs the target under docker-run-init. Either kills what the run left and
// empties /tmp and /dev/shm after it (the root is read-only), so the next run in the same
// container starts from the same state. Timeout: the agent kills the run's processes and
// the container stays; in an exec the engine has no "kill this exec", so the whole
// container goes (removed with the pool entry).
#include "run_pooled.hpp"

#include <sbx/plugin.hpp>

#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>

#include <sbx/utf8.hpp>

#include "command_file.hpp"
#include "result.hpp"
#include "run_once.hpp"

namespace sbx::docker {

using Clock = std::chrono::steady_clock;
using nlohmann::json;

namespace {

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

// The agent kills a run at its timeout; past this much more without an answer, the host
// gives up on the agent and the container goes, as after an exec's timeout.
constexpr std::chrono::milliseconds kAgentGrace{10000};

// The spec's variables after the executor's (HOME, TMPDIR, LANG), bytes as they are: the
// agent's wire is not JSON, so no command file is needed for invalid UTF-8.
std::vector<std::string> agent_environment(const RunSpec &spec) {
    std::vector<std::string> env = target_environment(spec, spec.workspace);
    for (const auto &[name, value] : spec.env) {
        if (!is_valid_utf8(value)) {
            std::string variable = name;
            variable += '=';
            variable += value;
            env.push_back(std::move(variable));
        }
    }
    return env;
}

// The run through the container's agent: no engine call. The figures are the cgroup's, as
// for an exec (the agent's rusage when the cgroup is not readable here).
void run_with_agent(StartContext &context, WarmContainer &warm, const RunSpec &spec, json &result,
                    PoolLease &lease) {
    result["transport"] = "agent";
    AgentRequest request;
    request.argv = spec.argv;
    request.env = agent_environment(spec);
    request.cwd = spec.workspace;
    request.stdin_bytes = spec.stdin_text;
    request.timeout_ms = spec.limits.timeout_ms;
    if (spec.limits.cpu_time_s > 0) {
        request.cpu_time_s = static_cast<std::uint64_t>(std::ceil(spec.limits.cpu_time_s));
    }
    std::optional<std::chrono::milliseconds> answer_deadline;
    if (spec.limits.timeout_ms > 0) {
        answer_deadline = std::chrono::milliseconds(spec.limits.timeout_ms) + kAgentGrace;
    }
    Ending ending;
    ending.cpu_time_limited = spec.limits.cpu_time_s > 0;
    CappedOutput out(spec.limits.output_bytes);
    CappedOutput err(spec.limits.output_bytes);
    const auto oom_before = warm.usage.oom_kills();
    warm.usage.reset_memory_peak();
    const CgroupFigures usage_before = warm.usage.read();
    const Clock::time_point run_started = Clock::now();
    AgentReply reply;
    try {
        reply = warm.agent->run(request, out, err, answer_deadline);
    } catch (const AgentLost &e) {
        lease.healthy = false;  // the container goes with whatever runs in it
        if (e.unanswered()) {
            host::log(SBX_LOG_WARN, "the agent of pooled container " + warm.container->name() +
                                        " did not answer after the run's timeout (" + e.what() +
                                        "); the container is removed");
            ending.timed_out = true;
            ending.wall_s = seconds_since(run_started);
            context.tally.add(kForceKills);
            put_ending(result, ending);
            put_output(result, "stdout", out, spec.limits.output_bytes);
            put_output(result, "stderr", err, spec.limits.output_bytes);
            return;
        }
        host::log(SBX_LOG_WARN, "the agent of pooled container " + warm.container->name() +
                                    " went during a run (" + e.what() +
                                    "); the container is replaced");
        put_docker_error(result,
                         "the agent of pooled container " + warm.container->name() +
                             " went during the run: " + e.what(),
                         1, true);
        result["wall_s"] = seconds_since(run_started);
        return;
    }
    ending.exit_code = reply.status;
    ending.timed_out = reply.timed_out;
    ending.wall_s = reply.wall_s;
    if (reply.timed_out) {
        context.tally.add(kForceKills);  // the run's processes, not the container
    } else if (ending.exit_code != 0 && oom_before) {
        const auto oom_after = warm.usage.oom_kills();
        ending.oom_killed = oom_after && *oom_after > *oom_before;
    }
    lease.healthy = !ending.oom_killed;
    put_ending(result, ending);
    if (warm.usage.source().empty()) {
        CgroupFigures figures;
        figures.cpu_user_s = reply.user_s;
        figures.cpu_sys_s = reply.system_s;
        figures.memory_peak_bytes = reply.max_rss_kb * 1024;
        put_usage(result, "rusage (docker-run-init)", figures);
    } else {
        put_usage(result, warm.usage.source(), cpu_between(usage_before, warm.usage.read()));
    }
    if (reply.helper_failed) {
        put_helper_failure(result, reply.status, reply.message);
        lease.healthy = false;
    } else if (put_helper_failure(result, ending.exit_code, err.kept())) {
        lease.healthy = false;
    }
    put_output(result, "stdout", out, spec.limits.output_bytes);
    put_output(result, "stderr", err, spec.limits.output_bytes);
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
    if (warm->agent) {
        run_with_agent(context, *warm, spec, result, lease);
        return result;
    }
    result["transport"] = "exec";

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
