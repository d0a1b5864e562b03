// The failure boundaries find-boundaries found so far, kept between searches
// (docs/user-guide.md "find-boundaries"): per workflow and axis, the harshest setting that
// held and the mildest that broke. A later search starts from the kept bracket (two probes
// when it still holds), and run-autonomous adds presets on both sides of each
// boundary. Kept in <data_dir>/preset_boundaries.json; before adapt-presets learned, they
// were the preset policy (preset_policy.json, format sandbox-runner/preset_policy/1), which
// is still read when no boundaries file exists.
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
using PresetBoundaries = std::map<std::string, std::map<std::string, KeptBoundary>>;

std::filesystem::path preset_boundaries_path(const std::filesystem::path &data_dir);

// The boundaries of `path`; when it does not exist, those of an older preset policy at
// `legacy_policy` (empty when that is not one). Throws InputError naming the file for one
// that is not this format.
PresetBoundaries load_preset_boundaries(const std::filesystem::path &path,
                                        const std::filesystem::path &legacy_policy);
// Written atomically.
void save_preset_boundaries(const std::filesystem::path &path, const PresetBoundaries &kept);

// Preset bodies on both sides of every boundary found for `workflows`, once each:
// {"SCENARIO_NAME": "KEY=12Mi", "KEY": "12Mi"} at the harshest setting that held and at the
// mildest that broke.
std::vector<nlohmann::json> boundary_preset_bodies(const PresetBoundaries &kept,
                                                   const std::vector<std::string> &workflows);

}  // namespace sbx::reports
