// The local executor's configuration: the JSON Schema it publishes in its descriptor, and the
// validated settings every run of an instance starts from.
#pragma once

#include <cstdint>
#include <string>

#include "support/run_spec.hpp"

namespace sbx::local {

// JSON Schema (draft 7) of the plugin's section in sandbox_settings.yaml.
inline constexpr const char kConfigSchema[] = R"json({
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "local executor",
  "description": "Runs each command as a child process of the host, in a fresh workspace folder and its own PID namespace.",
  "type": "object",
  "additionalProperties": false,
  "properties": {
    "workspace_root": {
      "type": "string",
      "default": "",
      "description": "Folder in which per-run workspaces (run-*) are made. Empty: the per-user folder, $TMPDIR/sandbox-runner-<uid> when TMPDIR is set, else $XDG_RUNTIME_DIR/sandbox-runner, else /tmp/sandbox-runner-<uid>."
    },
    "output_bytes": {
      "type": "integer",
      "minimum": 0,
      "default": 1048576,
      "description": "Bytes of stdout and of stderr kept per run, each; the rest is counted and discarded. A run spec's limits.output_bytes (when > 0) overrides it."
    },
    "default_timeout_ms": {
      "type": "integer",
      "minimum": 0,
      "default": 0,
      "description": "Wall-clock limit in milliseconds for runs whose spec has no limits.timeout_ms; 0 means no limit."
    },
    "inherit_env": {
      "type": "boolean",
      "default": false,
      "description": "false: the target sees only PATH, HOME and TMPDIR (the workspace), LANG=C.UTF-8 and the spec's env. true: the host's environment plus the spec's env."
    },
    "cgroups": {
      "type": "string",
      "enum": ["auto", "off"],
      "default": "auto",
      "description": "auto: enforce memory, pids, CPU share and disk write throttle with per-run cgroups when they can be made, else memory and pids with rlimits (no CPU share, no throttle). off: rlimits only."
    },
    "disk_limit": {
      "type": "string",
      "enum": ["tmpfs", "file_size"],
      "default": "tmpfs",
      "description": "How a spec's limits.disk_bytes is enforced. tmpfs: the workspace is a tmpfs of exactly that many bytes, mounted in the run's own mount namespace (writes beyond it fail with ENOSPC); needs CAP_SYS_ADMIN, falls back to file_size without. file_size: the largest file the target may write (RLIMIT_FSIZE, EFBIG)."
    },
    "sandbox": {
      "type": "string",
      "enum": ["warm", "cold"],
      "default": "warm",
      "description": "warm: each worker thread keeps a sandbox (its PID and mount namespaces with the filesystem view, and the user namespace without root) made once and reused by every run with the same view; each run still gets a fresh /tmp and /dev/shm, its own cgroups, and nothing of earlier runs. cold: every run gets namespaces and an init made for it alone (slower by ~0.3 ms a run; for comparison and debugging)."
    },
    "filesystem": {
      "type": "string",
      "enum": ["host", "readonly", "minimal"],
      "default": "readonly",
      "description": "What the target sees of the filesystem. readonly: the host's tree read-only, with the workspace, a private empty /tmp and /dev/shm writable and a /proc of the run's own PID namespace (built in the run's mount namespace; the host never sees it). minimal: nothing of the host but /dev (read-only) and the paths the run spec's binds list (from the workflow's binds:). host: the host's tree as it is, writable wherever the user may write. A run spec's filesystem (from the workflow) overrides it."
    }
  }
})json";

struct ExecutorConfig {
    // Absolute folder that holds the per-run workspaces; empty: the per-user folder.
    std::string workspace_root;
    std::uint64_t output_bytes = 1048576;
    std::uint64_t default_timeout_ms = 0;
    bool inherit_env = false;
    bool use_cgroups = true;
    // disk_bytes as a tmpfs workspace of that size (else RLIMIT_FSIZE only).
    bool disk_as_tmpfs = true;
    // Runs start in a warm sandbox per worker thread (else an init of their own each).
    bool warm_sandbox = true;
    // What the target sees of the filesystem, unless the run spec says otherwise.
    support::FilesystemMode filesystem = support::FilesystemMode::kReadonly;

    [[nodiscard]] support::RunSpecDefaults run_spec_defaults() const {
        return {default_timeout_ms, output_bytes, filesystem};
    }
};

// Parses and validates a configuration object ("" or null mean all defaults). Throws
// sbx::Error(SBX_INVALID) naming the offending key.
ExecutorConfig parse_config(const std::string &config_json);

}  // namespace sbx::local
