// The preset sources in order of precedence, and the environment variables that steer them.
#include "presets/selection.hpp"

#include <spdlog/spdlog.h>

#include <stdexcept>

#include "presets/canonical.hpp"
#include "presets/environment_keys.hpp"
#include "presets/generator.hpp"
#include "util/errors.hpp"

namespace sbx::presets {
namespace {

std::vector<Preset> wrap_all(const std::vector<nlohmann::json> &bodies, const std::string &origin) {
    std::vector<Preset> presets;
    for (size_t i = 0; i < bodies.size(); ++i) {
        presets.push_back(make_preset(bodies[i], origin + "[" + std::to_string(i) + "]", i));
    }
    return presets;
}

std::vector<Preset> generated(const SelectionInputs &inputs, bool enabled, bool canonical) {
    if (!enabled) {
        return {make_preset({{"SCENARIO_NAME", "normal"}}, "SANDBOX_GENERATE_PRESETS=0", 0)};
    }
    if (canonical) {
        // Both severities: the low presets say whether it copes, the high ones how far.
        return wrap_all(generate_canonical_presets(std::nullopt), "SANDBOX_PRESET_MODE=canonical");
    }
    if (inputs.preset_count < 1) {
        throw InputError("a preset count of " + std::to_string(inputs.preset_count) +
                         " generates nothing; ask for at least 1 preset");
    }
    GenerateOptions options;
    options.count = inputs.preset_count;
    options.seed = inputs.seed;
    return wrap_all(generate_presets(options),
                    "generated presets (seed " + std::to_string(inputs.seed) + ")");
}

}  // namespace

std::vector<std::vector<Preset>> load_preset_files(const std::vector<std::string> &paths) {
    std::vector<std::vector<Preset>> per_file;
    for (const auto &path : paths) {
        per_file.push_back(load_preset_file(path));
        if (per_file.back().empty()) {
            throw InputError(path +
                             ": the preset file holds no presets; write an object or a list "
                             "of at least one object, e.g. [{\"SCENARIO_NAME\": \"normal\"}]");
        }
    }
    return per_file;
}

namespace {

// The presets of the first source that gives any (see choose_presets); `written` tells
// whether somebody wrote them (1 to 3) or they were generated (4).
std::vector<Preset> presets_from_sources(const SelectionInputs &inputs, bool &written) {
    written = true;
    static const config::Settings kDefaults;
    const config::Settings &settings = inputs.settings != nullptr ? *inputs.settings : kDefaults;
    const bool enabled = settings.generate_presets;
    const bool canonical = settings.canonical_presets;
    const char *env_presets = settings.env_presets.empty() ? nullptr : settings.env_presets.c_str();
    if (!inputs.preset_files.empty()) {
        std::vector<Preset> chosen;
        for (auto &file : load_preset_files(inputs.preset_files)) {
            for (auto &preset : file) {
                chosen.push_back(std::move(preset));
            }
        }
        return chosen;
    }
    if (inputs.count_over_fixed) {
        const bool fixed = env_presets != nullptr || !settings.presets.empty();
        if (enabled) {
            if (fixed) {
                spdlog::warn(
                    "--preset-count {}: generated presets are run instead of the fixed "
                    "ones (SANDBOX_ENV_PRESETS or the settings' presets:)",
                    inputs.preset_count);
            }
            if (canonical) {
                spdlog::warn(
                    "--preset-count {} is ignored: SANDBOX_PRESET_MODE=canonical "
                    "generates the 12 canonical presets",
                    inputs.preset_count);
            }
            written = false;
            return generated(inputs, enabled, canonical);
        }
        spdlog::warn(
            "--preset-count {} cannot be honoured: SANDBOX_GENERATE_PRESETS=0 turns "
            "generation off; the fixed presets are run",
            inputs.preset_count);
    }
    if (const char *text = env_presets) {
        auto chosen = parse_presets(text, "SANDBOX_ENV_PRESETS");
        if (chosen.empty()) {
            throw InputError(
                "environment variable SANDBOX_ENV_PRESETS='" + std::string(text) +
                "': holds no presets; write a JSON object or a list of at least one object, "
                "or unset it");
        }
        return chosen;
    }
    if (!settings.presets.empty()) {
        std::vector<Preset> chosen;
        for (size_t i = 0; i < settings.presets.size(); ++i) {
            const auto origin = i < settings.preset_locations.size()
                                    ? settings.preset_locations[i].str()
                                    : settings.source;
            chosen.push_back(make_preset(settings.presets[i], origin, i));
        }
        return chosen;
    }
    written = false;
    return generated(inputs, enabled, canonical);
}

}  // namespace

std::vector<Preset> choose_presets(const SelectionInputs &inputs) {
    // Read first: a bad variable is reported whichever source wins.
    const auto keys =
        inputs.environment_keys ? environment_preset_keys() : nlohmann::json::object();
    bool written = true;
    auto chosen = presets_from_sources(inputs, written);
    apply_environment_keys(chosen, keys, written);
    make_names_unique(chosen);
    return chosen;
}

const Preset &rotated(const std::vector<std::vector<Preset>> &per_file, size_t run_index) {
    if (per_file.empty()) {
        throw std::invalid_argument("rotated: no preset files to rotate through");
    }
    const auto &file = per_file[run_index % per_file.size()];
    if (file.empty()) {
        throw std::invalid_argument("rotated: a preset file holds no presets");
    }
    return file[(run_index / per_file.size()) % file.size()];
}

Preset named_preset(const config::Settings &settings, const std::string &name,
                    const std::string &option) {
    for (std::size_t i = 0; i < settings.presets.size(); ++i) {
        const nlohmann::json &body = settings.presets[i];
        if (body.value("SCENARIO_NAME", nlohmann::json()) == name) {
            return {name, body, settings.preset_locations[i].str()};
        }
    }
    try {
        const std::string canonical = resolve_profile_alias(name);
        return {canonical, canonical_preset(canonical, Severity::low),
                "the canonical " + canonical + " preset"};
    } catch (const InputError &e) {
        throw InputError(option + " " + name + ": neither a preset of the settings nor " +
                         e.what());
    }
}

}  // namespace sbx::presets
