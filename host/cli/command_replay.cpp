// `replay RUN_ID [--print] [--json]`: runs one recorded run again — the same workflow,
// preset, flag, inputs and fault seed — as a session of its own, and says whether the
// outcome is the same; `--print` shows shell lines that run its steps alone instead.
#include <boost/program_options.hpp>
#include <iostream>

#include "cli_context.hpp"
#include "engine/plugin_set.hpp"
#include "engine/recorded_replay.hpp"
#include "engine/recorded_run.hpp"
#include "engine/workflow_runner.hpp"
#include "matrix_command.hpp"
#include "option_parsing.hpp"
#include "reports/shell_reproducer.hpp"
#include "session.hpp"
#include "util/errors.hpp"
#include "workflow_choice.hpp"

namespace po = boost::program_options;

namespace sbx::cli {
namespace {

using nlohmann::json;

struct ReplayOptions {
    int64_t run_id = 0;
    bool print = false;
    bool json = false;
};

ReplayOptions parse(const std::vector<std::string> &args) {
    ReplayOptions options;
    po::options_description description("replay options");
    description.add_options()("run", po::value(&options.run_id), "the run's id (runs.id)")(
        "print", po::bool_switch(&options.print), "print shell lines instead of running")(
        "json", po::bool_switch(&options.json), "print the outcome as JSON");
    po::positional_options_description positional;
    positional.add("run", 1);
    const auto vm = parse_options("replay", args, description, positional,
                                  "write `sandbox-runner replay RUN_ID [--print] [--json]`");
    if (!vm.count("run") || options.run_id < 1) {
        throw InputError(
            "replay: name a run by its id (runs.id, as a report's `replay:` line gives it), "
            "e.g. `sandbox-runner replay 42`");
    }
    return options;
}

// "failed at step parse (SG)" or "passed".
std::string outcome(const store::RecordedRun &run) {
    return engine::outcome_text(run.passed, run.failed_step, engine::failed_status(run));
}

// `replay RUN_ID --print`: the steps as shell lines, with the run's exact inputs.
void print_reproducer(CliContext &context, const store::RecordedRun &original,
                      const config::Workflow &workflow, const presets::Preset &preset) {
    engine::PluginSet plugins(context.settings, context.registry());
    engine::WorkflowRunner runner(plugins, context.settings, std::filesystem::current_path(), "");
    std::vector<std::string> names;
    for (const auto &step : workflow.steps) {
        names.push_back(step.name);
    }
    const std::vector<std::string> header = {
        "run " + std::to_string(original.id) + " of `" + original.command + "`: workflow " +
            original.workflow + ", preset " + original.preset_name + " (" + original.flag +
            "), repetition " + std::to_string(original.repetition) + ", " + outcome(original),
        "the steps alone, with the run's exact inputs; the preset's injected faults and "
        "limits are not here:",
        "`sandbox-runner replay " + std::to_string(original.id) + "` reproduces those too"};
    const bool counterfactual = original.flag == "off";
    std::cout << reports::shell_reproducer(
        header, names, runner.step_specs(workflow, preset, original.inputs, counterfactual, "."));
}

json run_json(const store::RecordedRun *run) {
    return {{"passed", run != nullptr && run->passed},
            {"failed_step", run != nullptr ? run->failed_step : ""},
            {"status", run != nullptr ? engine::failed_status(*run) : ""}};
}

void print_replayed(const store::RecordedRun &original, const engine::Replayed &replayed,
                    bool as_json) {
    const auto &again = replayed.again;
    if (as_json) {
        std::cout << json{{"run", original.id},
                          {"replay_run", again ? again->id : 0},
                          {"session", replayed.session},
                          {"original", run_json(&original)},
                          {"replay", run_json(again ? &*again : nullptr)},
                          {"reproduced", replayed.reproduced}}
                         .dump(2)
                  << '\n';
        return;
    }
    std::printf("run %lld (%s under %s, %s): %s\n", static_cast<long long>(original.id),
                original.workflow.c_str(), original.preset_name.c_str(), original.flag.c_str(),
                outcome(original).c_str());
    std::printf("replay as run %lld: %s\n", static_cast<long long>(again ? again->id : 0),
                again ? outcome(*again).c_str() : "not recorded");
    std::printf("%s\n", replayed.reproduced ? "reproduced" : "NOT reproduced");
}

}  // namespace

int run_replay_command(CliContext &context, const std::vector<std::string> &args) {
    const auto options = parse(args);
    const auto db = engine::recorded_database(context.settings, "replay");
    store::Store store(db);
    const auto original = engine::find_recorded_run(store, db, "replay", options.run_id);
    const auto &workflow = recorded_workflow(context, "replay", original);
    const presets::Preset preset{original.preset_name, original.preset_body,
                                 db.string() + ": preset of run " + std::to_string(original.id)};
    if (options.print) {
        print_reproducer(context, original, workflow, preset);
        return kExitOk;
    }
    const auto replayed = engine::replay_recorded_run(context.settings, context.registry(), store,
                                                      original, workflow, preset);
    print_replayed(original, replayed, options.json);
    return replayed.reproduced ? kExitOk : kExitGateFailed;
}

}  // namespace sbx::cli
