// The run spec: one command to run, as the executor ABI's request describes it, parsed and
// validated (a bad spec is SBX_INVALID, never a half-started run).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
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

// The command part of a run spec, the same for every executor that reads it the local way
// (the docker executor compiles this file in): what to run, with what, where.
struct CommandSpec {
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
    // `probe: true`: prepare, report `enforcement` and `downgraded`, run nothing (the host's
    // check before a matrix that every limit holds as asked).
    bool probe = false;
};

struct RunSpec : CommandSpec {
    RunLimits limits;
    // The spec's `filesystem` ("host" or "readonly", from the workflow), else the config's.
    FilesystemMode filesystem = FilesystemMode::kReadonly;
    // The host paths a `minimal` target sees (the spec's `binds`, from the workflow).
    std::vector<BindPath> binds;
};

// `spec_json` as a JSON object; SBX_INVALID when it is not JSON or not an object.
nlohmann::json parse_spec_object(const std::string &spec_json);

// Reads and checks the CommandSpec fields of a parsed run spec (argv non-empty, variable
// names, file paths inside the workspace, an existing workspace folder). Throws
// sbx::Error(SBX_INVALID) naming the field.
CommandSpec read_command_spec(const nlohmann::json &spec);

// Parses `spec_json`, filling absent limits from `config` (timeout_ms when absent,
// output_bytes when absent or 0). Unknown keys are ignored: the host may add fields other
// executors understand. Throws sbx::Error(SBX_INVALID) naming the offending field.
RunSpec parse_run_spec(const std::string &spec_json, const ExecutorConfig &config);
// The same from a spec already parsed (by an executor that reads more of it).
RunSpec read_run_spec(const nlohmann::json &spec, const ExecutorConfig &config);

// Throws SBX_INVALID unless `path` is relative and stays inside the workspace: not empty, not
// absolute, no ".." component, not ending in "/".
void check_workspace_path(const std::string &path, const std::string &where);

}  // namespace sbx::local
