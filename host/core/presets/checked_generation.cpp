// Generating presets and checking them as a preset file would be.
#include "presets/checked_generation.hpp"

#include <string>
#include <vector>

#include "presets/environment_keys.hpp"
#include "presets/preset.hpp"

namespace sbx::presets {

nlohmann::json generate_checked_presets(const GenerateOptions &options, bool preset_env) {
    const auto environment = preset_env ? environment_preset_keys() : nlohmann::json();
    const auto generated = generate_presets(options);
    std::vector<Preset> checked;
    for (size_t i = 0; i < generated.size(); ++i) {
        checked.push_back(make_preset(generated[i], "generated preset " + std::to_string(i), i));
    }
    apply_environment_keys(checked, environment, false);
    nlohmann::json array = nlohmann::json::array();
    for (const auto &preset : checked) {
        array.push_back(preset.body);
    }
    return array;
}

}  // namespace sbx::presets
