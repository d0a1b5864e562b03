// The docker executor's configuration: the JSON Schema it publishes, the SANDBOX_*
// variables that override it, and the validated settings every run starts from.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace sbx::docker {

inline constexpr const char kConfigSchema[] = R"json({
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "docker executor",
  "description": "Runs each command in a Docker container through the Engine API, with the workspace bind-mounted.",
  "type": "object",
  "additionalProperties": false,
  "properties": {
    "image": {"type": "string", "default": "sbx-busybox:local", "description": "Image when neither the preset (CONTAINER_IMAGE) nor SANDBOX_CONTAINER_IMAGE_<OS_TYPE> / SANDBOX_CONTAINER_IMAGE names one."},
    "user": {"type": "string", "default": "", "description": "User (name, uid or uid:gid) the target runs as; SANDBOX_CONTAINER_USER overrides. Empty: the image's."},
    "workspace_root": {"type": "string", "default": "", "description": "Folder for workspaces of specs that name none. Empty: the per-user folder ($TMPDIR/sandbox-runner-<uid>, else $XDG_RUNTIME_DIR/sandbox-runner, else /tmp/sandbox-runner-<uid>)."},
    "output_bytes": {"type": "integer", "minimum": 1, "default": 1048576, "description": "Bytes of stdout and of stderr kept per run, each."},
    "default_timeout_ms": {"type": "integer", "minimum": 0, "default": 0, "description": "Wall-clock limit for specs without limits.timeout_ms; 0: none."},
    "call_timeout_ms": {"type": "integer", "minimum": 100, "default": 15000, "description": "Deadline of every Engine API call that does not wait for the target and does not make a container (inspect, logs, exec, kill, remove)."},
    "start_timeout_ms": {"type": "integer", "minimum": 1000, "default": 120000, "description": "Deadline of the calls that make a container (create, start): the engine's real work, slow on a busy machine."},
    "parallel_starts": {"type": "integer", "minimum": 0, "default": 0, "description": "Most containers one host process creates and starts at once; the others wait their turn. 0: the machine's hardware threads."},
    "network_mode": {"type": "string", "default": "host", "description": "Docker network for runs that need networking (a preset with network keys, a workflow with upstreams). Others get none."},
    "pool": {"type": "boolean", "default": true, "description": "Reuse warm containers through exec for runs that share image, limits, user, network and workspace."},
    "pool_transport": {"type": "string", "enum": ["agent", "exec"], "default": "agent", "description": "How a run reaches its warm container. agent: the container's main process is docker-run-init's agent, handed each run over a unix socket in the container's private folder (no engine call per run); exec: an Engine API exec per run, the container running keepalive_argv."},
    "keepalive_argv": {"type": "array", "items": {"type": "string"}, "default": ["sleep", "2147483647"], "description": "What a pooled container runs while it waits for execs (pool_transport exec)."},
    "start_attempts": {"type": "integer", "minimum": 1, "maximum": 10, "default": 3, "description": "Attempts to create and start a container before the run records diagnostics.docker_error."},
    "backoff_ms": {"type": "integer", "minimum": 0, "default": 200, "description": "Delay before the second attempt; doubled before each later one."},
    "idle_timeout_s": {"type": "number", "minimum": 0, "default": 300, "description": "A pooled container idle this long is removed. SANDBOX_CONTAINER_IDLE_TIMEOUT overrides."},
    "max_lifetime_s": {"type": "number", "minimum": 0, "default": 3600, "description": "A pooled container this old is removed. SANDBOX_CONTAINER_MAX_LIFETIME overrides."},
    "max_containers": {"type": "integer", "minimum": 1, "default": 10, "description": "Most pooled containers alive at once in one host process. SANDBOX_MAX_CONTAINER_COUNT overrides."},
    "pool_label": {"type": "string", "default": "sandbox-runner", "description": "Label key put on everything the executor creates; purge-stale only touches containers carrying it. SANDBOX_POOL_LABEL overrides."},
    "fail_threshold": {"type": "integer", "minimum": 1, "default": 5, "description": "Consecutive start failures of one image that log a warning. SANDBOX_POOL_FAIL_THRESHOLD overrides."},
    "state_dir": {"type": "string", "default": "", "description": "Where active container ids and failure counters live when the spec names no state_dir. Empty: $TMPDIR/sandbox-runner/state."},
    "cleanup_interval_s": {"type": "number", "minimum": 0, "default": 60, "description": "Seconds between the pool reaper's passes, which remove idle and over-age pooled containers between runs; 0: only at each run. SANDBOX_POOL_CLEANUP_INTERVAL overrides."},
    "purge_at_start": {"type": "boolean", "default": true, "description": "Before the first run of a host process, remove the containers of dead hosts (what purge-stale does for this executor)."},
    "writable_root": {"type": "boolean", "default": false, "description": "Give the target a writable root filesystem (the container's own layer). false: the root is read-only and /tmp a fresh tmpfs, which lets a pooled container be reset between runs; true: every run gets a container of its own."}
  }
})json";

struct ExecutorConfig {
    std::string image = "sbx-busybox:local";
    std::string user;
    std::string workspace_root;  // empty: the per-user folder
    std::uint64_t output_bytes = 1048576;
    std::uint64_t default_timeout_ms = 0;
    std::uint64_t call_timeout_ms = 15000;
    std::uint64_t start_timeout_ms = 120000;
    std::uint64_t parallel_starts = 0;  // 0: the machine's hardware threads
    std::string network_mode = "host";
    bool pool = true;
    // A warm container's runs go to its agent (docker-run-init --serve), not through execs.
    bool pool_agent = true;
    std::vector<std::string> keepalive_argv = {"sleep", "2147483647"};
    int start_attempts = 3;
    std::uint64_t backoff_ms = 200;
    double idle_timeout_s = 300;
    double max_lifetime_s = 3600;
    std::uint64_t max_containers = 10;
    std::string pool_label = "sandbox-runner";
    std::uint64_t fail_threshold = 5;
    std::string state_dir;
    double cleanup_interval_s = 60;
    // Not a setting: docker-netns-exec beside the plugin's .so, "" when it is missing.
    std::string netns_helper;
    // Not a setting: docker-run-init beside the plugin's .so, "" when it is missing.
    std::string run_init;
    bool purge_at_start = true;
    bool writable_root = false;
};

// Parses the configuration, then applies the SANDBOX_* variables of the host's
// environment over it. Throws sbx::Error(SBX_INVALID) naming the key or variable.
ExecutorConfig parse_config(const std::string &config_json);

}  // namespace sbx::docker
