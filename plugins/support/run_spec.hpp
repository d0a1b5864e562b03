// The run spec: one command to run, as the executor ABI's request describes it, parsed and
// validated (a bad spec is SBX_INVALID, never a half-started run). One reader for every
// built-in executor (local, docker, qemu), so they refuse and accept the same specs.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "filesystem_mode.hpp"

namespace sbx::support {

// Every limit: 0 means none. How each is enforced is the executor's (see its README).
struct RunLimits {
    std::uint64_t timeout_ms = 0;      // wall clock
    double cpu_time_s = 0;             // CPU seconds (RLIMIT_CPU, rounded up)
    std::uint64_t memory_bytes = 0;    // memory
    std::uint64_t disk_bytes = 0;      // workspace size, else largest file
    std::uint64_t pids = 0;            // processes and threads
    double cpu_cores = 0;              // share of cores, like docker --cpus
    std::uint64_t disk_write_bps = 0;  // write throttle on the workspace's disk
    std::uint64_t gpus = 0;            // GPUs a container may use
    std::uint64_t output_bytes = 0;    // kept per stream; never 0 after parsing (a default)
};

// What an executor's settings fill in where a spec says nothing.
struct RunSpecDefaults {
    std::uint64_t timeout_ms = 0;    // for a spec without limits.timeout_ms
    std::uint64_t output_bytes = 1;  // for a spec without limits.output_bytes (or 0)
    FilesystemMode filesystem = FilesystemMode::kReadonly;
};

// The command part of a run spec, the same for every executor: what to run, with what, where.
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
    // `safe_mode: true`: the run must not reach the host's network. The network injector
    // sets `netns` for it; an executor given no namespace keeps the run off the network
    // itself or refuses it, and answers `safe_mode` with how it held it.
    bool safe_mode = false;
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
    // The host paths the step needs at their own place whatever the view (the spec's `show`:
    // the settings folder, the working directory, an injector's preload shim or report file),
    // read-only unless written "PATH:rw". Those that do not exist are left out.
    std::vector<BindPath> show;
};

// `spec_json` as a JSON object; SBX_INVALID when it is not JSON or not an object.
nlohmann::json parse_spec_object(const std::string &spec_json);

// Reads and checks the CommandSpec fields of a parsed run spec (argv non-empty, variable
// names, file paths inside the workspace, an existing workspace folder). Throws
// sbx::Error(SBX_INVALID) naming the field.
CommandSpec read_command_spec(const nlohmann::json &spec);

// The spec's `limits` (null: none), absent ones from `defaults` (timeout_ms when absent,
// output_bytes when absent or 0). Limits this reader does not know (the injectors'
// bandwidth...) are ignored. Throws sbx::Error(SBX_INVALID) naming the offending field.
RunLimits read_run_limits(const nlohmann::json &limits, const RunSpecDefaults &defaults);

// Reads a parsed spec, filling what it leaves out from `defaults`. Unknown keys are
// ignored: the host may add fields other executors understand. Throws
// sbx::Error(SBX_INVALID) naming the offending field.
RunSpec read_run_spec(const nlohmann::json &spec, const RunSpecDefaults &defaults);

// Throws SBX_INVALID unless `path` is relative and stays inside the workspace: not empty, not
// absolute, no ".." component, not ending in "/".
void check_workspace_path(const std::string &path, const std::string &where);

}  // namespace sbx::support
