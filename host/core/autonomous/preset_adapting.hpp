// adapt-presets (docs/user-guide.md "adapt-presets"): the presets a command would run, each
// stepped milder or harsher from what roi_history.json says of its scenario, by the learned
// policy (kept in preset_policy.json) or the rules; written as a preset file the next
// run-scenarios or run-autonomous takes.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/settings.hpp"
#include "presets/preset_adaptation.hpp"

namespace sbx::autonomous {

struct AdaptRequest {
    std::vector<std::string> preset_files;  // none: generated or the settings' presets
    int preset_count = 3;
    int64_t seed = 0;
    std::string strategy;           // q_learning or rules; "" for the settings'
    std::filesystem::path history;  // "" for <data_dir>/roi_history.json
    std::filesystem::path out;      // "" for <data_dir>/adapted_presets.json
};

struct AdaptedPresets {
    std::string strategy;
    size_t chosen = 0;  // presets chosen before adapting
    std::filesystem::path history, policy, out;
    int changed = 0;  // settings changed over all presets
    std::vector<presets::PresetDecision> decisions;
    nlohmann::json bodies = nlohmann::json::array();  // as written to `out`
};

// Adapts the chosen presets, writes them to `out` and, learning with q_learning, the
// policy beside the data (find-boundaries' brackets kept in its file move to their own).
AdaptedPresets adapt_and_write_presets(const config::Settings &settings,
                                       const AdaptRequest &request);

}  // namespace sbx::autonomous
