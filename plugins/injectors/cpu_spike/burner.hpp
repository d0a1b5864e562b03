// CPU burner processes: helpers (support/helper_process.hpp) that spin until killed.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "support/helper_process.hpp"

namespace cpu_spike {

using Burner = sbx::support::HelperProcess;

// Starts one burner; records it under `state_dir` when that is not empty.
Burner start_burner(const std::filesystem::path &state_dir);
// Kills and reaps the burner if it is still the same process; removes its pid file.
void stop_burner(const Burner &burner);
// Kills burners recorded in `state_dir` whose host is gone and removes their records;
// returns what was (with `dry_run`: would be) removed.
std::vector<std::string> sweep_burners(const std::filesystem::path &state_dir, bool dry_run);

}  // namespace cpu_spike
