// CPU burner processes: children that spin until killed, die with the thread that made
// them, and leave a pid file so a crashed host's burners can be swept later.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <string>
#include <vector>

namespace cpu_spike {

struct Burner {
    pid_t pid = 0;
    unsigned long long start_time = 0;  // /proc/<pid>/stat field 22: guards against pid reuse
    std::filesystem::path pid_file;
};

// Starts one burner; records it under `state_dir` when that is not empty.
Burner start_burner(const std::filesystem::path &state_dir);
// Kills and reaps the burner if it is still the same process; removes its pid file.
void stop_burner(const Burner &burner);
// Kills burners recorded in `state_dir` whose host is gone and removes their records;
// returns what was (with `dry_run`: would be) removed.
std::vector<std::string> sweep_burners(const std::filesystem::path &state_dir, bool dry_run);

}  // namespace cpu_spike
