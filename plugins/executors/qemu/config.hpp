// The qemu executor's configuration: the JSON Schema it publishes, and the settings every
// guest starts from. SANDBOX_OVERLAY_MAX_AGE, SANDBOX_MAX_OVERLAY_COUNT,
// SANDBOX_ACTIVE_OVERLAYS and SANDBOX_FAILED_OVERLAYS win over the file.
#pragma once

#include <cstdint>
#include <string>

namespace sbx::qemu {

inline constexpr const char kConfigSchema[] = R"json({
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "qemu executor",
  "description": "Runs each command in a QEMU guest (a Debian kernel with a busybox initramfs and sbx-guest-agent); one boot serves many runs.",
  "type": "object",
  "additionalProperties": false,
  "properties": {
    "qemu_binary": {"type": "string", "default": "qemu-system-x86_64", "description": "The QEMU system emulator to start (a name searched in PATH, or a path)."},
    "guest_dir": {"type": "string", "default": "", "description": "Folder with guest.json and initrd.img from tools/build-guest-initramfs. Empty: the qemu-guest/ folder next to this plugin's .so, built with it."},
    "kernel": {"type": "string", "default": "", "description": "Kernel to boot. Empty: the one guest.json names. VM_SETTINGS kernel wins."},
    "initrd": {"type": "string", "default": "", "description": "Initramfs to boot. Empty: guest.json's. VM_SETTINGS initrd wins."},
    "accel": {"type": "string", "default": "tcg", "description": "QEMU accelerator: tcg (software emulation, works everywhere) or kvm (needs a usable /dev/kvm)."},
    "cpu": {"type": "string", "default": "max", "description": "Guest CPU model (-cpu); with kvm, host is the usual choice."},
    "bios": {"type": "string", "default": "qboot.rom", "description": "Firmware (-bios). qboot boots about 2 s faster than the default SeaBIOS; empty uses QEMU's default."},
    "memory_mb": {"type": "integer", "minimum": 64, "default": 256, "description": "Guest memory in MiB. VM_SETTINGS memory wins."},
    "cpus": {"type": "integer", "minimum": 1, "default": 1, "description": "Guest CPUs. VM_SETTINGS cpus wins."},
    "boot_timeout_ms": {"type": "integer", "minimum": 1, "default": 60000, "description": "How long a boot may take until the agent answers. VM_SETTINGS timeout (seconds) wins."},
    "boot_attempts": {"type": "integer", "minimum": 1, "default": 3, "description": "Boots tried before a run records diagnostics.vm_error."},
    "backoff_ms": {"type": "integer", "minimum": 0, "default": 500, "description": "Wait before the second boot attempt; doubled before each further one."},
    "default_timeout_ms": {"type": "integer", "minimum": 0, "default": 0, "description": "Wall-clock limit for runs whose spec has no limits.timeout_ms; 0 means none."},
    "answer_slack_ms": {"type": "integer", "minimum": 0, "default": 15000, "description": "How much longer than a run's own limit the host waits for the guest's answer before it declares the guest lost and kills it."},
    "output_bytes": {"type": "integer", "minimum": 0, "default": 1048576, "description": "Bytes of stdout and of stderr kept per run, each."},
    "workspace_root": {"type": "string", "default": "", "description": "Folder for fresh per-run workspaces when a spec names none. Empty: the per-user folder ($TMPDIR/sandbox-runner-<uid>, else $XDG_RUNTIME_DIR/sandbox-runner, else /tmp/sandbox-runner-<uid>)."},
    "overlay_root": {"type": "string", "default": "", "description": "Folder of the per-boot overlay folders (share, console log, disk overlay). Empty: <state_dir>/qemu."},
    "overlay_max_age_s": {"type": "integer", "minimum": 0, "default": 604800, "description": "An overlay folder with no owner record (its host died while making it) is purged once this old (SANDBOX_OVERLAY_MAX_AGE, e.g. 7d, wins); folders of dead hosts with a record are purged at any age."},
    "max_overlay_count": {"type": "integer", "minimum": 0, "default": 0, "description": "At most this many overlay folders; when a boot would exceed it, the oldest of dead hosts are purged first (SANDBOX_MAX_OVERLAY_COUNT wins). 0: unlimited."}
  }
})json";

struct ExecutorConfig {
    std::string qemu_binary = "qemu-system-x86_64";
    std::string guest_dir;  // absolute after parsing
    std::string kernel;
    std::string initrd;
    std::string accel = "tcg";
    std::string cpu = "max";
    std::string bios = "qboot.rom";
    std::uint64_t memory_mb = 256;
    std::uint64_t cpus = 1;
    std::uint64_t boot_timeout_ms = 60000;
    std::uint64_t boot_attempts = 3;
    std::uint64_t backoff_ms = 500;
    std::uint64_t default_timeout_ms = 0;
    std::uint64_t answer_slack_ms = 15000;
    std::uint64_t output_bytes = 1048576;
    std::string workspace_root;  // absolute after parsing; empty: the per-user folder
    std::string overlay_root;    // "" until a spec's state_dir fills it
    std::uint64_t overlay_max_age_s = 604800;
    std::uint64_t max_overlay_count = 0;
    std::string active_overlays_file;  // SANDBOX_ACTIVE_OVERLAYS, else <overlay_root>/...
    std::string failed_overlays_file;  // SANDBOX_FAILED_OVERLAYS, else <overlay_root>/...
};

// Parses and validates a configuration object, then applies the environment variables.
// Throws sbx::Error(SBX_INVALID) naming the offending key or variable.
ExecutorConfig parse_config(const std::string &config_json);

// "7d", "12h", "30m", "45s" or a bare number of seconds, as SANDBOX_OVERLAY_MAX_AGE takes.
// Throws sbx::Error(SBX_INVALID) naming `where`.
std::uint64_t parse_duration_s(const std::string &text, const std::string &where);

// The folder this plugin's .so lives in ("" when unknown).
std::string plugin_folder();

}  // namespace sbx::qemu
