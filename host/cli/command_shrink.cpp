// `shrink RUN_ID [--max-runs N] [--json]`: the smallest inputs and fewest fault keys with
// which a recorded failed run still fails the same way (same failed step, status and
// outcome class). Each candidate is a recorded run of one session, `shrink RUN_ID`; the
// report ends with the `replay` line of the minimal one.
#include <boost/program_options.hpp>
#include <iostream>

#include "cli_context.hpp"
#include "engine/plugin_set.hpp"
#include "engine/recorded_run.hpp"
#include "engine/recorded_shrink.hpp"
#include "matrix_command.hpp"
#include "option_parsing.hpp"
#include "reports/replay_line.hpp"
#include "reports/shrink_report.hpp"
#include "session.hpp"
#include "util/errors.hpp"
#include "workflow_choice.hpp"

namespace po = boost::program_options;

namespace sbx::cli {
namespace {

using nlohmann::json;

struct ShrinkOptions {
    int64_t run_id = 0;
    int max_runs = 500;
    bool json = false;
};

ShrinkOptions parse(const std::vector<std::string> &args) {
    ShrinkOptions options;
    po::options_description description("shrink options");
    description.add_options()("run", po::value(&options.run_id), "the failed run's id (runs.id)")(
        "max-runs", po::value(&options.max_runs), "runs to spend at most (default 500)")(
        "json", po::bool_switch(&options.json), "print the result as JSON");
    po::positional_options_description positional;
    positional.add("run", 1);
    const auto vm = parse_options("shrink", args, description, positional,
                                  "write `sandbox-runner shrink RUN_ID [--max-runs N] [--json]`");
    if (!vm.count("run") || options.run_id < 1) {
        throw InputError(
            "shrink: name a failed run by its id (runs.id, as a report's `replay:` line gives "
            "it), e.g. `sandbox-runner shrink 42`");
    }
    if (options.max_runs < 1) {
        throw InputError("shrink: --max-runs must be at least 1 (the original's run), not " +
                         std::to_string(options.max_runs));
    }
    return options;
}

}  // namespace

int run_shrink_command(CliContext &context, const std::vector<std::string> &args) {
    const auto options = parse(args);
    const auto db = engine::recorded_database(context.settings, "shrink");
    store::Store store(db);
    const auto original = engine::find_recorded_run(store, db, "shrink", options.run_id);
    if (original.passed) {
        throw InputError("shrink: run " + std::to_string(original.id) +
                         " passed; shrink needs a failed run (a report's `replay:` line names "
                         "one)");
    }
    const auto &workflow = recorded_workflow(context, "shrink", original);
    const auto shrunk = engine::shrink_recorded_run(context.settings, context.registry(), store,
                                                    original, workflow, options.max_runs);
    if (!shrunk.result.reproducible) {
        if (options.json) {
            std::cout << reports::not_reproducible_json(original, shrunk).dump(2) << '\n';
        } else {
            std::cout << reports::not_reproducible_text(original, shrunk);
        }
        return kExitGateFailed;
    }
    const json report = reports::shrink_report(
        original, shrunk, options.max_runs,
        reports::command_prefix(context.settings.source, context.settings.data_dir));
    if (options.json) {
        std::cout << report.dump(2, ' ', false, json::error_handler_t::replace) << '\n';
    } else {
        std::cout << reports::shrink_text(original, shrunk.result, report, options.max_runs);
    }
    return kExitOk;
}

}  // namespace sbx::cli
