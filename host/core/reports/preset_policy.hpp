// The failure boundaries found so far, kept between searches (docs/user-guide.md
// "adapt-presets"): per workflow and axis, the harshest setting that held and the mildest
// that broke. A later search starts from the kept bracket (two probes when it still holds),
// and full-autonomous-run adds presets on both sides of each boundary. Its path is
// SANDBOX_PRESET_RL_PATH, else <data_dir>/preset_policy.json (the seeds' name for the
// policy of their preset search).
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace sbx::reports {

struct KeptBoundary {
    std::string kind;   // found, holds_everywhere or breaks_everywhere
    double holds = 0;   // found: the harshest setting that held
    double breaks = 0;  // found: the mildest setting that broke
    std::string unit;   // of the values in a preset ("Mi"), "" for none
    bool integer = false;
    int probes = 0;  // of the search that found it
    int runs = 0;
};

// workflow -> axis key -> boundary
using PresetPolicy = std::map<std::string, std::map<std::string, KeptBoundary>>;

std::filesystem::path preset_policy_path(const std::filesystem::path &data_dir);

// An empty policy when the file does not exist. Throws InputError naming the file for one
// that is not this format.
PresetPolicy load_preset_policy(const std::filesystem::path &path);
// Written atomically.
void save_preset_policy(const std::filesystem::path &path, const PresetPolicy &policy);

// Preset bodies on both sides of every boundary found for `workflows`, once each:
// {"SCENARIO_NAME": "KEY=12Mi", "KEY": "12Mi"} at the harshest setting that held and at the
// mildest that broke.
std::vector<nlohmann::json> boundary_preset_bodies(const PresetPolicy &policy,
                                                   const std::vector<std::string> &workflows);

}  // namespace sbx::reports
