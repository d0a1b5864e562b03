// Helper processes of an injector (CPU burners, thread bursts): forks without exec that run
// one function until killed, die with the host thread that made them, and leave a pid file
// so that a crashed host's helpers can be swept later.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace sbx::support {

struct HelperProcess {
    pid_t pid = 0;
    unsigned long long start_time = 0;  // /proc/<pid>/stat field 22: guards against pid reuse
    std::filesystem::path pid_file;
};

// Forks a helper running `body` (which must not return) with every descriptor closed but
// `keep_fd` (-1: none): a fork of the host would otherwise hold, say, the write end of
// another worker's pipe, whose reader would then wait for an end-of-file that never
// comes. Recorded as `<state_dir>/<prefix>-<pid>` when `state_dir` is not empty.
HelperProcess start_helper(const std::filesystem::path &state_dir, const std::string &prefix,
                           const std::function<void()> &body, int keep_fd = -1);

// Kills and reaps the helper if it is still the same process; removes its pid file.
void stop_helper(const HelperProcess &helper);

// Kills the helpers recorded under `state_dir` with `prefix` whose host is gone (they were
// reparented) and removes their records, also records of helpers already gone; returns what
// was (with `dry_run`: would be) removed, as "<prefix> pid N" or "<prefix> record FILE".
std::vector<std::string> sweep_helpers(const std::filesystem::path &state_dir,
                                       const std::string &prefix, bool dry_run);

}  // namespace sbx::support
