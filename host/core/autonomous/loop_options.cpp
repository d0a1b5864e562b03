// The loop options to and from the JSON of its state.
#include "autonomous/loop_options.hpp"

#include <filesystem>
#include <type_traits>

namespace sbx::autonomous {

using nlohmann::json;

json AutonomousOptions::to_json() const {
    const auto optional_number = [](const auto &value) { return value ? json(*value) : json(); };
    std::vector<std::string> files;
    for (const auto &file : preset_files) {
        files.push_back(std::filesystem::absolute(file).lexically_normal().string());
    }
    return {{"workflows", workflows},
            {"max_iterations", max_iterations},
            {"max_minutes", max_minutes},
            {"preset_count", preset_count},
            {"preset_count_given", preset_count_given},
            {"preset_strategy", preset_strategy},
            {"preset_files", files},
            {"runs", runs},
            {"workers", workers},
            {"roi_cycles", optional_number(roi_cycles)},
            {"synergy_cycles", optional_number(synergy_cycles)},
            {"roi_threshold", optional_number(roi_threshold)},
            {"synergy_threshold", optional_number(synergy_threshold)},
            {"entropy_threshold", optional_number(entropy_threshold)},
            {"synergy_threshold_window", optional_number(synergy_threshold_window)},
            {"synergy_threshold_weight", optional_number(synergy_threshold_weight)},
            {"entropy_plateau_consecutive", optional_number(entropy_plateau_consecutive)},
            {"forecast_log",
             forecast_log.empty() ? "" : std::filesystem::absolute(forecast_log).string()}};
}

AutonomousOptions AutonomousOptions::from_json(const json &options) {
    AutonomousOptions parsed;
    parsed.workflows = options.at("workflows").get<std::vector<std::string>>();
    parsed.max_iterations = options.at("max_iterations").get<int>();
    parsed.max_minutes = options.at("max_minutes").get<double>();
    parsed.preset_count = options.at("preset_count").get<int>();
    // Loops saved before presets were adapted ran them fixed.
    parsed.preset_count_given = options.value("preset_count_given", false);
    parsed.preset_strategy = options.value("preset_strategy", "fixed");
    parsed.preset_files = options.at("preset_files").get<std::vector<std::string>>();
    parsed.runs = options.at("runs").get<int>();
    parsed.workers = options.at("workers").get<unsigned>();
    const auto read = [&](const char *key, auto &into) {
        const auto &value = options.at(key);
        if (!value.is_null()) {
            into = value.get<typename std::decay_t<decltype(into)>::value_type>();
        }
    };
    read("roi_cycles", parsed.roi_cycles);
    read("synergy_cycles", parsed.synergy_cycles);
    read("roi_threshold", parsed.roi_threshold);
    read("synergy_threshold", parsed.synergy_threshold);
    read("entropy_threshold", parsed.entropy_threshold);
    // Loops saved before these options existed have no such keys.
    const auto read_new = [&](const char *key, auto &into) {
        if (options.contains(key)) {
            read(key, into);
        }
    };
    read_new("synergy_threshold_window", parsed.synergy_threshold_window);
    read_new("synergy_threshold_weight", parsed.synergy_threshold_weight);
    read_new("entropy_plateau_consecutive", parsed.entropy_plateau_consecutive);
    parsed.forecast_log = options.at("forecast_log").get<std::string>();
    return parsed;
}

}  // namespace sbx::autonomous
