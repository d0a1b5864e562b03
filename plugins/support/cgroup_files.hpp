// The one reader of the files the kernel writes for cgroups (and sysfs), and parsers of their
// formats: flat keyed ("key value" lines), single values, io.stat and v1's blkio files.
// Needs only the C and C++ libraries, so the static qemu guest agent builds it in too.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sbx::support {

// The whole text of a small kernel file (cgroupfs, sysfs, procfs); nullopt when it cannot be
// opened or a read fails. Plain open(2) and read(2): no stream state or locale to carry.
std::optional<std::string> read_kernel_file(const std::string &path);

// The number after `key` in a flat keyed file ("key value" per line: memory.events,
// pids.events, cpu.stat, v1's memory.oom_control); nullopt when no line has that key or its
// value is not a whole number.
std::optional<std::uint64_t> flat_keyed_value(std::string_view text, std::string_view key);

// The number a single value file holds (memory.peak, v1's memory.max_usage_in_bytes),
// surrounding white space allowed; nullopt for "max" or anything but one whole number.
std::optional<std::uint64_t> single_value(std::string_view text);

// True when `word` is one of the space-separated words of `text` (cgroup.controllers,
// cgroup.subtree_control): "cpu" is not found in "cpuset".
bool has_word(std::string_view text, std::string_view word);

struct BlockIoBytes {
    std::uint64_t read = 0;     // bytes read from block devices (bios issued)
    std::uint64_t written = 0;  // bytes written to them
};

// The bytes read and written over every device of a v2 io.stat ("MAJ:MIN rbytes=N wbytes=N
// ...", a line per device) or a v1 blkio.throttle.io_service_bytes ("MAJ:MIN Read N",
// "MAJ:MIN Write N", ..., "Total N"); nullopt for a text with no device line.
std::optional<BlockIoBytes> block_io_bytes(std::string_view text);

// One line of /proc/PID/cgroup, "ID:CONTROLLERS:PATH": the process's cgroup in one hierarchy.
struct CgroupMembership {
    std::string controllers;  // "cpu,cpuacct" (v1); "" for the unified (v2) hierarchy
    std::string path;         // "/user.slice/x.scope", below the hierarchy's mount
};

// The lines of a /proc/PID/cgroup text; a line without its two colons is left out.
std::vector<CgroupMembership> cgroup_memberships(std::string_view text);

// The cgroups of process `pid` (/proc/PID/cgroup; "self" for the caller), one per
// hierarchy; empty when the process is gone or the file unreadable.
std::vector<CgroupMembership> cgroup_memberships_of(const std::string &pid);

// The path in the unified hierarchy (the "0::PATH" line); nullopt when there is none.
std::optional<std::string> unified_cgroup_path(const std::vector<CgroupMembership> &memberships);

}  // namespace sbx::support
