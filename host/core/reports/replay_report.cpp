// Rendering a replayed run.
#include "reports/replay_report.hpp"

#include <filesystem>

#include "engine/plugin_set.hpp"
#include "engine/recorded_run.hpp"
#include "engine/workflow_runner.hpp"
#include "reports/shell_reproducer.hpp"

namespace sbx::reports {

using nlohmann::json;

namespace {

json run_json(const store::RecordedRun *run) {
    return {{"passed", run != nullptr && run->passed},
            {"failed_step", run != nullptr ? run->failed_step : ""},
            {"status", run != nullptr ? engine::failed_status(*run) : ""}};
}

}  // namespace

std::string recorded_run_line(const store::RecordedRun &run, const std::string &ending) {
    return "run " + std::to_string(run.id) + " (" + run.workflow + " under " + run.preset_name +
           ", " + run.flag + "): " + ending;
}

std::string run_outcome(const store::RecordedRun &run) {
    return engine::outcome_text(run.passed, run.failed_step, engine::failed_status(run));
}

json replay_json(const store::RecordedRun &original, const engine::Replayed &replayed) {
    const auto &again = replayed.again;
    return {{"run", original.id},
            {"replay_run", again ? again->id : 0},
            {"session", replayed.session},
            {"original", run_json(&original)},
            {"replay", run_json(again ? &*again : nullptr)},
            {"reproduced", replayed.reproduced}};
}

std::string replay_text(const store::RecordedRun &original, const engine::Replayed &replayed) {
    const auto &again = replayed.again;
    return recorded_run_line(original, run_outcome(original)) + "\nreplay as run " +
           std::to_string(again ? again->id : 0) + ": " +
           (again ? run_outcome(*again) : "not recorded") + "\n" +
           (replayed.reproduced ? "reproduced" : "NOT reproduced") + "\n";
}

std::string replay_reproducer(const config::Settings &settings, plugins::Registry &registry,
                              const store::RecordedRun &original, const config::Workflow &workflow,
                              const presets::Preset &preset) {
    engine::PluginSet plugins(settings, registry);
    engine::WorkflowRunner runner(plugins, settings, std::filesystem::current_path(), "");
    std::vector<std::string> names;
    for (const auto &step : workflow.steps) {
        names.push_back(step.name);
    }
    const std::vector<std::string> header = {
        "run " + std::to_string(original.id) + " of `" + original.command + "`: workflow " +
            original.workflow + ", preset " + original.preset_name + " (" + original.flag +
            "), repetition " + std::to_string(original.repetition) + ", " + run_outcome(original),
        "the steps alone, with the run's exact inputs; the preset's injected faults and "
        "limits are not here:",
        "`sandbox-runner replay " + std::to_string(original.id) + "` reproduces those too"};
    const bool counterfactual = original.flag == "off";
    return shell_reproducer(
        header, names, runner.step_specs(workflow, preset, original.inputs, counterfactual, "."));
}

}  // namespace sbx::reports
