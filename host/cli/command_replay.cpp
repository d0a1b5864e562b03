// `replay RUN_ID [--print] [--json]`: runs one recorded run again — the same workflow,
// preset, flag, inputs and fault seed — as a session of its own, and says whether the
// outcome is the same; `--print` shows shell lines that run its steps alone instead.
#include <boost/program_options.hpp>
#include <iostream>

#include "cli_context.hpp"
#include "engine/recorded_replay.hpp"
#include "engine/recorded_run.hpp"
#include "matrix_command.hpp"
#include "option_parsing.hpp"
#include "reports/replay_report.hpp"
#include "session.hpp"
#include "util/errors.hpp"
#include "workflow_choice.hpp"

namespace po = boost::program_options;

namespace sbx::cli {
namespace {

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
    const auto db = engine::recorded_database(context.settings, "replay");
    store::Store store(db);
    const auto original = engine::find_recorded_run(store, db, "replay", options.run_id);
    const auto &workflow = recorded_workflow(context, "replay", original);
    const presets::Preset preset{original.preset_name, original.preset_body,
                                 db.string() + ": preset of run " + std::to_string(original.id)};
    if (options.print) {
        std::cout << reports::replay_reproducer(context.settings, context.registry(), original,
                                                workflow, preset);
        return kExitOk;
    }
    const auto replayed = engine::replay_recorded_run(context.settings, context.registry(), store,
                                                      original, workflow, preset);
    if (options.json) {
        std::cout << reports::replay_json(original, replayed).dump(2) << '\n';
    } else {
        std::cout << reports::replay_text(original, replayed);
    }
    return replayed.reproduced ? kExitOk : kExitGateFailed;
}

}  // namespace sbx::cli
