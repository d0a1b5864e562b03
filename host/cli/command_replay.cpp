// `replay RUN_ID [--print] [--json]`: runs one recorded run again — the same workflow,
// preset, flag, inputs and fault seed — as a session of its own, and says whether the
// outcome is the same; `--print` shows shell lines that run its steps alone instead.
#include <boost/program_options.hpp>
#include <iostream>

#include "cli_context.hpp"
#include "engine/cell_runner.hpp"
#include "engine/plugin_set.hpp"
#include "matrix_command.hpp"
#include "option_parsing.hpp"
#include "recorded_run.hpp"
#include "reports/shell_reproducer.hpp"
#include "session.hpp"
#include "util/errors.hpp"

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

}  // namespace

int run_replay_command(CliContext &context, const std::vector<std::string> &args) {
    const auto options = parse(args);
    auto &settings = context.settings;
    const auto db = recorded_database(settings, "replay");
    store::Store store(db);
    const auto original = find_recorded_run(store, db, "replay", options.run_id);
    const auto &workflow = recorded_workflow(context, "replay", original);
    const presets::Preset preset{original.preset_name, original.preset_body,
                                 db.string() + ": preset of run " + std::to_string(original.id)};
    const bool counterfactual = original.flag == "off";
    engine::PluginSet plugins(settings, context.registry());

    if (options.print) {
        engine::WorkflowRunner runner(plugins, settings, std::filesystem::current_path(), "");
        std::vector<std::string> names;
        for (const auto &step : workflow.steps) {
            names.push_back(step.name);
        }
        const std::vector<std::string> header = {
            "run " + std::to_string(original.id) + " of `" + original.command + "`: workflow " +
                original.workflow + ", preset " + original.preset_name + " (" + original.flag +
                "), repetition " + std::to_string(original.repetition) + ", " +
                outcome_text(original.passed, original.failed_step, failed_status(original)),
            "the steps alone, with the run's exact inputs; the preset's injected faults and "
            "limits are not here:",
            "`sandbox-runner replay " + std::to_string(original.id) + "` reproduces those too"};
        std::cout << reports::shell_reproducer(
            header, names,
            runner.step_specs(workflow, preset, original.inputs, counterfactual, "."));
        return kExitOk;
    }

    resolve_plugins_for(plugins, {&workflow}, {});
    const int64_t session =
        store.begin_session("replay " + std::to_string(original.id), settings.source, original.seed,
                            json{{"run", original.id}});
    record_plugins_used(store, session, plugins);
    engine::WorkflowRunner runner(plugins, settings, std::filesystem::current_path(),
                                  settings.state_folder().string());
    engine::CellRunner cells(plugins, runner, store, session);
    // A cell of one slot at the run's own repetition: the same fault seed as the original.
    auto work = rerun_work(store, workflow, preset, original, original.inputs, "replay");
    within_session(store, session, [&] {
        cells.run_one(work, original.repetition);
        return 0;
    });
    const auto again = store::find_run(store, work.results.back().run_id);
    const bool same = again && again->passed == original.passed &&
                      again->failed_step == original.failed_step &&
                      failed_status(*again) == failed_status(original);
    if (options.json) {
        std::cout << json{{"run", original.id},
                          {"replay_run", again ? again->id : 0},
                          {"session", session},
                          {"original",
                           {{"passed", original.passed},
                            {"failed_step", original.failed_step},
                            {"status", failed_status(original)}}},
                          {"replay",
                           {{"passed", again && again->passed},
                            {"failed_step", again ? again->failed_step : ""},
                            {"status", again ? failed_status(*again) : ""}}},
                          {"reproduced", same}}
                         .dump(2)
                  << '\n';
    } else {
        std::printf(
            "run %lld (%s under %s, %s): %s\n", static_cast<long long>(original.id),
            original.workflow.c_str(), original.preset_name.c_str(), original.flag.c_str(),
            outcome_text(original.passed, original.failed_step, failed_status(original)).c_str());
        std::printf(
            "replay as run %lld: %s\n", static_cast<long long>(again ? again->id : 0),
            again ? outcome_text(again->passed, again->failed_step, failed_status(*again)).c_str()
                  : "not recorded");
        std::printf("%s\n", same ? "reproduced" : "NOT reproduced");
    }
    return same ? kExitOk : kExitGateFailed;
}

}  // namespace sbx::cli
