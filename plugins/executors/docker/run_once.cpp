// Resources in release order: the private folder outlives the container that mounts it.
#include "run_once.hpp"

#include <sbx/plugin.hpp>

#include <atomic>
#include <chrono>
#include <fstream>

#include "command_file.hpp"
#include "result.hpp"
#include "state_files.hpp"

namespace sbx::docker {

using Clock = std::chrono::steady_clock;
using nlohmann::json;

namespace {

// Whether a container can be put under a parent cgroup of ours and the figures read from
// it: the engine on a local socket, managing cgroups itself ("cgroupfs"; the systemd driver
// wants a slice), and a cgroup layout this process can read. Asked once per process.
bool parent_cgroup_usable(EngineApi &api) {
    static std::atomic<int> answer{0};  // 0: not asked yet, 1: usable, 2: not
    if (answer == 0) {
        bool usable = false;
        try {
            usable = !api.endpoint().unix_socket.empty() &&
                     api.info().value("CgroupDriver", "") == "cgroupfs" &&
                     !CgroupUsage::at_path(kParentCgroupFolder).source().empty();
        } catch (const std::exception &e) {
            host::log(SBX_LOG_DEBUG, std::string("no engine information: ") + e.what());
        }
        answer = usable ? 1 : 2;
    }
    return answer == 1;
}

}  // namespace

json run_once(StartContext &context, const RunSpec &spec, const Owner &owner) {
    json result = empty_result(spec);
    std::unique_ptr<ScopedFolder> io;
    std::string stdin_path;
    const bool by_file = needs_command_file(spec);
    if (!spec.stdin_text.empty() || by_file) {
        io = std::make_unique<ScopedFolder>(docker_state_folder(spec.state_dir) + "/io");
    }
    if (!spec.stdin_text.empty()) {
        std::ofstream(io->path() + "/stdin", std::ios::binary) << spec.stdin_text;
        stdin_path = std::string(kIoMount) + "/stdin";
    }
    std::vector<std::string> command = target_command(spec, stdin_path);
    if (by_file) {
        command = command_through_file(spec, command, io->path() + "/command",
                                       std::string(kIoMount) + "/command");
    }
    ContainerPlan plan = plan_container(spec, context.config, owner, command,
                                        io ? io->path() : std::string(), false);
    // The container's own cgroup goes when it exits, before its figures could be read; a
    // parent's keeps them (cgroups charge their ancestors). Outlives the container.
    std::unique_ptr<ParentCgroup> parent;
    if (parent_cgroup_usable(context.api)) {
        parent = std::make_unique<ParentCgroup>();
        plan.create_body["HostConfig"]["CgroupParent"] = parent->path();
    }
    const Clock::time_point started = Clock::now();
    std::unique_ptr<Container> container;
    try {
        container = start_container(context, plan);
    } catch (const StartFailed &e) {
        result["enforcement"] = plan.enforcement;
        put_docker_error(result, e.what(), e.attempts(), e.transient());
        result["wall_s"] = seconds_since(started);
        return result;
    }
    result["enforcement"] = plan.enforcement;
    result["container"] = container->name();
    // The target's clock starts once its container runs: waiting for a turn to start one,
    // and the engine's own start-up, are not the target's time.
    const Clock::time_point target_started = Clock::now();

    Ending ending;
    ending.cpu_time_limited = spec.limits.cpu_time_s > 0;
    std::optional<std::chrono::milliseconds> limit;
    if (spec.limits.timeout_ms > 0) {
        limit = std::chrono::milliseconds(spec.limits.timeout_ms);
    }
    const auto cancelled_or = [&](const EngineError &e) {
        if (e.failure() == EngineFailure::cancelled) {
            throw Error(SBX_CANCELLED, "run cancelled by the host; its container is removed");
        }
    };
    try {
        ending.exit_code = context.api.wait_container(container->id(), limit);
    } catch (const EngineError &e) {
        cancelled_or(e);
        if (e.failure() != EngineFailure::timeout || !limit) {
            // The engine lost the container: how the target ended is unknown.
            put_docker_error(result, e.what(), 1, true);
            result["wall_s"] = seconds_since(target_started);
            return result;
        }
        ending.timed_out = true;
        context.tally.add(kForceKills);
        try {
            context.api.kill_container(container->id());
        } catch (const EngineError &kill_error) {
            cancelled_or(kill_error);
            note_docker_error(result, kill_error.what());  // it hung: that stands
        }
    }
    ending.wall_s = seconds_since(target_started);
    if (!ending.timed_out) {
        try {
            const json state =
                context.api.inspect_container(container->id()).value("State", json());
            ending.oom_killed = state.value("OOMKilled", false);
            ending.exit_code = state.value("ExitCode", ending.exit_code);
        } catch (const EngineError &e) {
            cancelled_or(e);
            note_docker_error(result, e.what());  // the exit code from the wait stands
        }
    }
    const CgroupUsage usage = parent ? CgroupUsage::at_path(parent->path()) : CgroupUsage();
    CappedOutput out(spec.limits.output_bytes);
    CappedOutput err(spec.limits.output_bytes);
    StreamDemux demux(out, err);
    try {
        context.api.read_logs(container->id(), demux);
    } catch (const EngineError &e) {
        cancelled_or(e);
        // Without its output the step cannot be judged: the sandbox failed this run.
        put_docker_error(result, std::string("reading the target's output: ") + e.what(), 1, true);
        result["wall_s"] = ending.wall_s;
        return result;
    }
    put_ending(result, ending);
    put_usage(result, usage.source(), usage.read());
    put_output(result, "stdout", out, spec.limits.output_bytes);
    put_output(result, "stderr", err, spec.limits.output_bytes);
    // A helper could not run the target as asked (the netns helper could not enter its
    // namespace, say): the executor failed.
    put_helper_failure(result, ending.exit_code, err.kept());
    return result;
}

}  // namespace sbx::docker
