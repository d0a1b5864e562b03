// Recording a matrix command's options and reading them back for --recover.
#include "engine/session_options.hpp"

#include <filesystem>

namespace sbx::engine {

namespace {

std::string placement(const std::string &on) {
    return on.empty() ? "local" : on;
}

}  // namespace

nlohmann::json recorded_options(const RunSessionOptions &options) {
    std::vector<std::string> files;
    files.reserve(options.preset_files.size());
    for (const auto &file : options.preset_files) {
        files.push_back(std::filesystem::absolute(file).lexically_normal().string());
    }
    return {{"runs", options.runs},
            {"preset_count", options.preset_count},
            {"preset_files", files},
            {"on", placement(options.on)}};
}

nlohmann::json recorded_options(const ScenarioSessionOptions &options) {
    return {{"repetitions", options.repetitions},
            {"robustness_repetitions", options.robustness_repetitions},
            {"fault_scenarios_repeat", options.fault_scenarios_repeat},
            {"all_scenarios", options.all_scenarios},
            {"on", placement(options.on)}};
}

nlohmann::json recorded_options(const TrajectorySessionOptions &options) {
    return {{"repetitions", options.repetitions}, {"on", placement(options.on)}};
}

RunSessionOptions recovered_run_options(const nlohmann::json &recorded) {
    return {recorded.value("runs", 1), recorded.value("preset_count", 3),
            recorded.value("preset_files", std::vector<std::string>()),
            recorded.value("on", "local")};
}

ScenarioSessionOptions recovered_scenario_options(const nlohmann::json &recorded) {
    // A session recorded before robustness repetitions existed ran them as the others, and
    // one recorded before fault scenarios were repeated as robustness scenarios ran them once.
    return {recorded.value("repetitions", 1), recorded.value("robustness_repetitions", 1),
            recorded.value("all_scenarios", false), recorded.value("on", "local"),
            recorded.value("fault_scenarios_repeat", false)};
}

TrajectorySessionOptions recovered_trajectory_options(const nlohmann::json &recorded) {
    return {recorded.value("repetitions", 1), recorded.value("on", "local")};
}

}  // namespace sbx::engine
