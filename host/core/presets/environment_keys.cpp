#include "presets/environment_keys.hpp"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <string>

#include "config/preset_checks.hpp"
#include "util/errors.hpp"
#include "util/units.hpp"

namespace sbx::presets {

nlohmann::json environment_preset_keys() {
    nlohmann::json keys = nlohmann::json::object();
    for (char **entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
        const std::string text = *entry;
        const auto equals = text.find('=');
        if (equals == std::string::npos || equals + 1 == text.size()) {
            continue;  // empty counts as unset
        }
        const std::string key = text.substr(0, equals);
        if (!is_known_key(key) || key == "SCENARIO_NAME" || key == "SANDBOX_STUB_STRATEGY") {
            continue;
        }
        const nlohmann::json value = text.substr(equals + 1);
        try {
            config::check_preset_value(key, value);
        } catch (const UnitError &e) {
            throw InputError("environment variable " + text + ": " + e.problem() + "; " + e.hint() +
                             " (as a preset key it reaches every preset: unset it, "
                             "or write preset_env: false in the settings)");
        }
        keys[key] = value;
    }
    return keys;
}

void apply_environment_keys(std::vector<Preset> &presets, const nlohmann::json &keys,
                            bool written) {
    if (keys.empty()) {
        return;
    }
    std::string listed;
    for (const auto &[key, value] : keys.items()) {
        listed += (listed.empty() ? "" : ", ") + key + "=" + value.get<std::string>();
    }
    spdlog::info("preset keys from the environment: {} ({}; preset_env: false turns this off)",
                 listed,
                 written ? "each fills the presets that leave the key out"
                         : "each replaces the generated value");
    for (size_t i = 0; i < presets.size(); ++i) {
        Preset &preset = presets[i];
        nlohmann::json body = preset.body;
        for (const auto &[key, value] : keys.items()) {
            if (!written || !body.contains(key)) {
                body[key] = value;
            }
        }
        if (body == preset.body) {
            continue;
        }
        const std::string name = preset.name;
        preset = make_preset(std::move(body), preset.origin, i);
        preset.name = name;
    }
}

}  // namespace sbx::presets
