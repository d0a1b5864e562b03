// Running one spec. Resources are declared in the order they must be released in reverse:
// workspace (removed last), its tmpfs, cgroups (emptied and removed), stdio, then the target.
#include "execute.hpp"

#include <sbx/plugin.hpp>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

#include <chrono>
#include <memory>
#include <optional>
#include <utility>

#include <sbx/unique_fd.hpp>
#include <sbx/utf8.hpp>
#include "cgroups.hpp"
#include "disk_plan.hpp"
#include "enforcement.hpp"
#include "output_capture.hpp"
#include "rlimits.hpp"
#include "shown_paths.hpp"
#include "spawn.hpp"
#include "supervise.hpp"
#include "support/blank_result.hpp"
#include "support/classify.hpp"
#include "support/network_entry.hpp"
#include "support/sys_error.hpp"
#include "support/workspace.hpp"
#include "target_command.hpp"
#include "target_stdio.hpp"

namespace sbx::local {
namespace {

using Clock = std::chrono::steady_clock;

double seconds(const timeval &time) {
    return static_cast<double>(time.tv_sec) + static_cast<double>(time.tv_usec) / 1e6;
}

double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

void put_output(nlohmann::json &result, const char *name, const OutputCapture &capture,
                std::uint64_t cap) {
    const std::string field(name);
    result[field] = utf8_stand_in(capture.kept(), static_cast<std::size_t>(cap));
    result[field + "_bytes"] = capture.total_bytes();
    result[field + "_truncated"] = capture.truncated();
}

// The child's side of the run, from pieces that must outlive the spawn.
SpawnRequest spawn_request(const ProgramLookup &program, const CStringArray &argv,
                           const CStringArray &envp, const support::Workspace &workspace,
                           const TargetStdio &stdio, const RunCgroups *cgroups,
                           const support::RunLimits &limits, const DiskPlan &disk) {
    SpawnRequest request;
    request.program = program.path.c_str();
    request.argv = argv.data();
    request.envp = envp.data();
    request.workdir = workspace.path().c_str();
    request.stdin_fd = stdio.stdin_file.get();
    request.stdout_fd = stdio.stdout_write.get();
    request.stderr_fd = stdio.stderr_write.get();
    if (cgroups != nullptr) {
        request.cgroup_procs_fds = cgroups->join_fds();
        request.cgroup_folder_fd = cgroups->folder_fd();
    }
    if (disk.tmpfs) {
        request.workspace_mount_fd = disk.tmpfs->mount_fd();
    }
    HeldElsewhere held;
    held.memory_in_cgroup = cgroups != nullptr && cgroups->limits_memory();
    held.pids_in_cgroup = cgroups != nullptr && cgroups->limits_pids();
    held.disk_in_tmpfs = disk.tmpfs != nullptr;
    request.limits = target_rlimits(limits, held);
    return request;
}

// What the kernel and the workspace tell about how the run ended.
support::Evidence gather_evidence(const Supervised &run, const support::RunLimits &limits,
                                  const RunCgroups *cgroups, const support::Workspace &workspace,
                                  const DiskPlan &disk, nlohmann::json &result) {
    support::Evidence evidence;
    evidence.wait_status = run.exit.wait_status;
    evidence.wall_timeout = run.timed_out;
    evidence.cpu_soft_limit_s = cpu_soft_limit_s(limits);
    evidence.cpu_used_s = seconds(run.exit.usage.ru_utime) + seconds(run.exit.usage.ru_stime);
    if (cgroups != nullptr) {
        const CgroupCounters counters = cgroups->counters();
        evidence.oom_kills = counters.oom_kills;
        evidence.pids_refused = counters.pids_refused;
        if (counters.memory_peak_bytes) {
            result["memory_peak_bytes"] = *counters.memory_peak_bytes;
        }
        if (cgroups->limits_cpu()) {
            evidence.cpu_throttled = counters.cpu_throttled_periods > 0;
            result["cpu_throttled_s"] = counters.cpu_throttled_s;
        }
    }
    if (disk.tmpfs) {
        evidence.workspace_full = disk.tmpfs->full();
        result["disk_used_bytes"] = disk.tmpfs->used_bytes();
    } else {
        const bool exited_cleanly =
            WIFEXITED(run.exit.wait_status) && WEXITSTATUS(run.exit.wait_status) == 0;
        if (limits.disk_bytes > 0 && !exited_cleanly) {
            evidence.file_size_reached = workspace.has_file_of_at_least(limits.disk_bytes);
        }
    }
    return evidence;
}

void put_outcome(nlohmann::json &result, const support::Verdict &verdict, const Supervised &run,
                 double wall_s) {
    result["status"] = verdict.status;
    result["exit_code"] = verdict.exit_code;
    result["signal"] = verdict.signal;
    result["limit"] = verdict.limit;
    result["limits_hit"] = verdict.limits_hit;
    result["wall_s"] = wall_s;
    result["cpu_user_s"] = seconds(run.exit.usage.ru_utime);
    result["cpu_sys_s"] = seconds(run.exit.usage.ru_stime);
    // Caveat: the kernel carries the spawning process's peak RSS into the target at execve
    // (true of posix_spawn and fork too), so this is never below the host's own peak.
    result["max_rss_kb"] = run.exit.usage.ru_maxrss;
    // Block I/O of the target and everything the run's init reaped, as /proc/PID/io's
    // read_bytes and write_bytes count it (the kernel's rusage holds them in 512-byte units):
    // bytes read from a block device (not from the page cache) and bytes written to pages of
    // a file on one (at the write, whenever the kernel writes them back; not tmpfs, pipes or
    // sockets). Not the run's cgroup's io.stat: only runs with limits have a cgroup, and it
    // counts buffered writes only once they are written back, mostly after the run.
    constexpr long kBlockBytes = 512;
    result["disk_read_bytes"] = run.exit.usage.ru_inblock * kBlockBytes;
    result["disk_write_bytes"] = run.exit.usage.ru_oublock * kBlockBytes;
}

// The next step (or the user, with keep_workspace) finds in the folder what this one left
// in its tmpfs. A failure does not change the run's verdict; the result and log say it.
void sync_back(const WorkspaceTmpfs &tmpfs, const std::string &folder, nlohmann::json &result) {
    try {
        tmpfs.copy_out(folder);
    } catch (const Error &e) {
        result["workspace_error"] = e.what();
        host::log(SBX_LOG_WARN,
                  std::string("run ") + result.value("run_id", "") +
                      ": the workspace tmpfs was not copied back entirely: " + e.what());
    }
}

}  // namespace

nlohmann::json execute(const support::RunSpec &spec, const ExecutorConfig &config) {
    if (host::cancelled()) {
        throw Error(SBX_CANCELLED, "run not started: the host is cancelling");
    }
    nlohmann::json result = support::blank_result(spec.run_id);

    support::Workspace workspace = support::Workspace::for_spec(spec.workspace, spec.keep_workspace,
                                                                config.workspace_root, spec.run_id);
    if (workspace.survives()) {
        result["workspace"] = workspace.path();
    }

    const support::RunLimits &limits = spec.limits;
    const DiskPlan disk = plan_disk(limits, config, workspace.path());
    if (disk.tmpfs) {
        // What the folder holds (earlier steps' files), then the spec's files on top.
        disk.tmpfs->copy_in(workspace.path());
        support::write_workspace_files(disk.tmpfs->root_fd(), workspace.path(), spec.files);
    } else {
        workspace.write_files(spec.files);
    }

    std::unique_ptr<RunCgroups> cgroups;
    if (config.use_cgroups) {
        CgroupRequest request;
        request.name = next_cgroup_name();
        request.memory_bytes = limits.memory_bytes;
        request.pids = limits.pids;
        request.cpu_cores = limits.cpu_cores;
        request.io_device = disk.io_device;
        request.disk_write_bps = limits.disk_write_bps;
        cgroups = make_run_cgroups(request);
    }
    result["enforcement"] = enforcement(limits, cgroups.get(), disk, config.use_cgroups);
    result["downgraded"] = downgrades(limits, cgroups.get(), disk, config);
    if (spec.safe_mode) {
        // Held by the namespace the network injector made: loopback only, entered below.
        result["safe_mode"] = "netns";
    }
    if (spec.probe) {
        result["status"] = "OK";
        result["probe"] = true;
        return result;
    }
    if (spec.safe_mode && spec.netns.empty()) {
        // Never in the host's network: the injector that makes the namespace did not run.
        result.erase("safe_mode");
        result["error"] =
            "safe_mode: the run spec names no network namespace (netns) to keep the target "
            "off the network; list the network injector in injectors:";
        return result;
    }

    const std::vector<std::string> environment =
        target_environment(spec, config.inherit_env, workspace.path());
    const ProgramLookup program = find_program(spec.argv.front(), environment, workspace.path());
    if (program.error != 0) {
        result["error"] = "cannot execute '" + spec.argv.front() +
                          "': " + support::errno_text(program.error) +
                          "; searched PATH=" + program.searched;
        return result;
    }

    // Opened here, entered by the child: a bad path is the spec's fault, told as such.
    std::optional<support::NetworkEntry> network;
    if (!spec.netns.empty()) {
        try {
            network.emplace(spec.netns);
        } catch (const Error &error) {
            result["error"] = std::string(error.what()) + " (run spec: netns)";
            return result;
        }
        result["netns"] = spec.netns;
    }

    TargetStdio stdio = make_target_stdio(spec.stdin_text);
    const CStringArray argv(spec.argv);
    const CStringArray envp(environment);
    SpawnRequest request =
        spawn_request(program, argv, envp, workspace, stdio, cgroups.get(), limits, disk);
    if (network) {
        request.netns_fd = network->netns_fd();
        request.netns_owner_fd = network->userns_fd();
    }
    request.filesystem = spec.filesystem;
    // A workspace made for this run alone would need a sandbox of its own: such runs start
    // cold. The host names a workspace it reuses run after run.
    request.warm = config.warm_sandbox && !spec.workspace.empty();
    request.shown = shown_paths(spec, program.path, environment, workspace.path());
    for (const support::BindPath &bind : spec.binds) {
        request.bind_paths.push_back(bind.path.c_str());
        request.bind_writable.push_back(bind.writable ? 1 : 0);
    }

    // The wall clock (and the timeout) covers the target, not the preparation before it.
    const Clock::time_point started = Clock::now();
    SpawnOutcome spawned = spawn_target(request);
    stdio.close_child_ends();
    if (!spawned.target) {
        const std::string &step = spawned.failed_step;
        if (step == "execve") {
            result["error"] = "cannot execute '" + spec.argv.front() + "' (" + program.path +
                              "): " + support::errno_text(spawned.failed_errno);
        } else if (step == "setns network namespace") {
            result["error"] = "cannot enter network namespace '" + spec.netns +
                              "' (run spec: netns; is it a network namespace, and does the "
                              "host have CAP_SYS_ADMIN?): setns: " +
                              support::errno_text(spawned.failed_errno);
        } else if (step == "mount the workspace" || step == "make mounts private") {
            result["error"] = "cannot mount the workspace over " + workspace.path() + " (" + step +
                              "): " + support::errno_text(spawned.failed_errno) +
                              (disk.tmpfs ? "; set the local executor's disk_limit to file_size "
                                            "to do without a tmpfs workspace"
                                          : "");
        } else if (step == "build the filesystem view" ||
                   step.rfind("make a mount namespace", 0) == 0) {
            result["error"] = "cannot give the target its view of the filesystem (" + step +
                              "): " + support::errno_text(spawned.failed_errno) +
                              "; enable unprivileged user namespaces (sysctl "
                              "kernel.unprivileged_userns_clone=1 or "
                              "user.max_user_namespaces > 0), or set `filesystem: host` in the "
                              "workflow or the local executor's settings";
        } else if (step == "map the user namespace") {
            result["error"] = "cannot map the caller's ids in the run's user namespace (" + step +
                              "): " + support::errno_text(spawned.failed_errno);
        } else {
            result["error"] = "cannot prepare the target (" + step +
                              "): " + support::errno_text(spawned.failed_errno);
        }
        result["wall_s"] = seconds_since(started);
        return result;
    }
    result["isolation"] = isolation_name(spawned.target->isolation());
    result["sandbox"] = spawned.warm ? "warm" : "cold";
    if (cgroups != nullptr) {
        // How the target entered its cgroup: made in it, or moved in by its first write.
        result["cgroup_entry"] = spawned.cloned_into_cgroup ? "clone_into_cgroup" : "cgroup.procs";
    }
    result["user_namespace"] = spawned.target->user_namespace();
    result["filesystem"] = support::filesystem_name(spec.filesystem);

    OutputCapture out(std::move(stdio.stdout_read), limits.output_bytes);
    OutputCapture err(std::move(stdio.stderr_read), limits.output_bytes);
    std::optional<Clock::time_point> deadline;
    if (limits.timeout_ms > 0) {
        deadline = started + std::chrono::milliseconds(limits.timeout_ms);
    }
    const Supervised run = supervise(*spawned.target, out, err, deadline);
    const double wall_s = seconds_since(started);
    if (run.cancelled) {
        throw Error(SBX_CANCELLED, "run cancelled by the host after " + std::to_string(wall_s) +
                                       " s; the target was killed");
    }

    const support::Evidence evidence =
        gather_evidence(run, limits, cgroups.get(), workspace, disk, result);
    put_outcome(result, support::classify(evidence), run, wall_s);
    put_output(result, "stdout", out, limits.output_bytes);
    put_output(result, "stderr", err, limits.output_bytes);
    if (disk.tmpfs && workspace.survives()) {
        sync_back(*disk.tmpfs, workspace.path(), result);
    }
    return result;
}

}  // namespace sbx::local
