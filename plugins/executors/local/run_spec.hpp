// The run spec: one command to run, as the executor ABI's request describes it, parsed and
// validated (a bad spec is SBX_INVALID, never a half-started run).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "config.hpp"

namespace sbx::local {

// Every limit: 0 means none.
struct RunLimits {
    std::uint64_t timeout_ms = 0;      // wall clock, enforced by the parent
    double cpu_time_s = 0;             // RLIMIT_CPU, rounded up to whole seconds
    std::uint64_t memory_bytes = 0;    // memory cgroup, else RLIMIT_AS
    std::uint64_t disk_bytes = 0;      // workspace size (tmpfs), else largest file (RLIMIT_FSIZE)
    std::uint64_t pids = 0;            // pids cgroup, else RLIMIT_NPROC
    double cpu_cores = 0;              // share of cores (cpu cgroup quota), like docker --cpus
    std::uint64_t disk_write_bps = 0;  // write throttle on the workspace's disk (blkio / io)
    std::uint64_t output_bytes = 0;    // kept per stream; never 0 after parsing (config default)
};

struct RunSpec {
    std::string run_id;
    std::vector<std::string> argv;
    std::vector<std::pair<std::string, std::string>> env;
    std::string stdin_text;
    // Relative path inside the workspace -> content.
    std::vector<std::pair<std::string, std::string>> files;
    // An existing folder to run in (never deleted), or "" for a fresh workspace.
    std::string workspace;
    bool keep_workspace = false;
    // A network namespace to run in (/run/netns/NAME or /proc/PID/ns/net), or "" to stay
    // in the host's. Set by a network injector.
    std::string netns;
    RunLimits limits;
};

// Parses `spec_json`, filling absent limits from `config` (timeout_ms when absent,
// output_bytes when absent or 0). Unknown keys are ignored: the host may add fields other
// executors understand. Throws sbx::Error(SBX_INVALID) naming the offending field.
RunSpec parse_run_spec(const std::string &spec_json, const ExecutorConfig &config);

// Throws SBX_INVALID unless `path` is relative and stays inside the workspace: not empty, not
// absolute, no ".." component, not ending in "/".
void check_workspace_path(const std::string &path, const std::string &where);

}  // namespace sbx::local
