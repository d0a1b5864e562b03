// `explore WORKFLOW [--slot S] [--runs N] [--seed N] [--preset NAME] [--corpus DIR]
// [--shrink-runs N] [--json]`: a budget of runs spent on one workflow's input, coverage
// guided where the target gives coverage (engine/explorer.hpp); the distinct failures found,
// each shrunk, with its replay line; the corpus kept in DIR to resume from.
#include <boost/program_options.hpp>
#include <filesystem>
#include <iostream>

#include "cli_context.hpp"
#include "engine/corpus_folder.hpp"
#include "engine/explore_session.hpp"
#include "matrix_command.hpp"
#include "option_parsing.hpp"
#include "presets/selection.hpp"
#include "progress_line.hpp"
#include "reports/explore_report.hpp"
#include "reports/replay_line.hpp"
#include "session.hpp"
#include "util/errors.hpp"
#include "workflow_choice.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace sbx::cli {
namespace {

struct ExploreOptions {
    std::string workflow;
    std::string slot;
    int runs = 1000;
    int64_t seed = 1;
    std::string preset = "hostile_input";
    std::string corpus;
    int shrink_runs = 100;
    bool json = false;
};

ExploreOptions parse(const std::vector<std::string> &args) {
    ExploreOptions options;
    po::options_description description("explore options");
    description.add_options()("workflow", po::value(&options.workflow), "the workflow")(
        "slot", po::value(&options.slot), "the input to explore")("runs", po::value(&options.runs),
                                                                  "runs to spend (default 1000)")(
        "seed", po::value(&options.seed), "the stub strategy's seed (default 1)")(
        "preset", po::value(&options.preset), "the preset the runs use (default hostile_input)")(
        "corpus", po::value(&options.corpus), "a folder to resume the corpus from and keep it in")(
        "shrink-runs", po::value(&options.shrink_runs),
        "runs to spend shrinking each crash (default 100; 0: none)")(
        "json", po::bool_switch(&options.json), "print the result as JSON");
    po::positional_options_description positional;
    positional.add("workflow", 1);
    parse_options("explore", args, description, positional,
                  "write `sandbox-runner explore WORKFLOW [--slot S] [--runs N] [--corpus DIR]`");
    if (options.runs < 1) {
        throw InputError("explore: --runs must be at least 1, not " + std::to_string(options.runs));
    }
    if (options.shrink_runs < 0) {
        throw InputError("explore: --shrink-runs must be 0 (no shrinking) or more, not " +
                         std::to_string(options.shrink_runs));
    }
    return options;
}

}  // namespace

int run_explore_command(CliContext &context, const std::vector<std::string> &args) {
    ExploreOptions options = parse(args);
    auto &settings = context.settings;
    const config::Workflow &workflow = choose_workflow(context, "explore", options.workflow);
    options.workflow = workflow.name;
    const presets::Preset preset =
        presets::named_preset(settings, options.preset, "explore: --preset");
    engine::ExploreSettings explore_settings;
    explore_settings.slot = engine::explored_slot(workflow, options.slot);
    explore_settings.runs = options.runs;
    explore_settings.seed = options.seed;
    explore_settings.corpus = engine::read_corpus(options.corpus);

    ProgressLine progress(context.options);
    const auto explored = engine::explore_in_session(settings, context.registry(), workflow, preset,
                                                     explore_settings, progress.observer());
    progress.stop();
    auto &store = *explored.store;
    const auto &outcome = explored.outcome;
    if (const auto lost = engine::keep_corpus(options.corpus, outcome.corpus); !lost.empty()) {
        // The runs are recorded; only the corpus is lost, said as such.
        std::fprintf(stderr, "explore: cannot write %s; the corpus is not kept\n", lost.c_str());
    }
    const auto crashes = engine::shrink_crashes(settings, context.registry(), store, workflow,
                                                outcome.crashes, options.shrink_runs);
    const reports::ExploreReport report{outcome, crashes, workflow.name,
                                        reports::command_prefix(settings.source, settings.data_dir),
                                        explored.session};
    if (options.json) {
        std::cout << reports::explore_json(report, preset.name)
                         .dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
                  << '\n';
    } else {
        std::cout << reports::explore_text(report, options.preset, options.corpus);
    }
    std::fflush(stdout);
    return finish_with_disabled_plugins(disabled_plugins(store, explored.session),
                                        settings.plugin_host.strict, kExitOk);
}

}  // namespace sbx::cli
