// The uniform result schema (the same fields as the local executor), filled from what the
// engine reports: exit code, State.OOMKilled, whether the wall-clock limit fired.
#pragma once

#include <chrono>

#include <nlohmann/json.hpp>
#include <string>

#include "cgroup_usage.hpp"
#include "run_spec.hpp"
#include "support/docker_engine/stream_demux.hpp"

namespace sbx::docker {

// Every field of a result, zeroed, status XX: a run that never started reads like any other.
// Seconds from `start` to now: a run's wall_s.
double seconds_since(std::chrono::steady_clock::time_point start);

nlohmann::json empty_result(const RunSpec &spec);

struct Ending {
    long exit_code = 0;
    bool oom_killed = false;
    bool timed_out = false;
    bool cpu_time_limited = false;  // the spec set cpu_time_s (ulimit cpu)
    double wall_s = 0;
};

// status OK|RE|SG|TO|OOM, exit_code, signal, limit, limits_hit, wall_s. The engine reports
// a signal as exit code 128 + signal, so SG is any code in 129..192 (a target that exits
// with such a code on purpose reads as SG, as it does under `docker run`). SIGXCPU under a
// CPU-time limit is TO with limit cpu_time, as local classifies it.
void put_ending(nlohmann::json &result, const Ending &ending);
void put_output(nlohmann::json &result, const char *name, const CappedOutput &output,
                std::uint64_t cap);
// cpu_user_s, cpu_sys_s, max_rss_kb (the memory cgroup's peak, in KiB) and usage_source
// ("cgroup_v1", "cgroup_v2", or why there are no figures).
void put_usage(nlohmann::json &result, const std::string &source, const CgroupFigures &figures);
// A helper of ours (docker-run-init, docker-netns-exec) failed: it exits 125 with a line
// starting with its name on stderr. Then the run is XX with that line: the executor failed,
// not the target. Returns whether it did.
bool put_helper_failure(nlohmann::json &result, long exit_code, const std::string &stderr_text);
// XX with the engine's message in `error` and diagnostics.docker_error.
void put_docker_error(nlohmann::json &result, const std::string &message, int attempts,
                      bool sandbox_fault);
// The target's ending stands; an engine call after it failed (a kill after the timeout, an
// inspect), which diagnostics.docker_error keeps.
void note_docker_error(nlohmann::json &result, const std::string &message);

}  // namespace sbx::docker
