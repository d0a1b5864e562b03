// `run --workflow NAME`: the workflow under each preset, recorded and reported.
#include <unistd.h>

#include <spdlog/spdlog.h>
#include <boost/program_options.hpp>
#include <cstdlib>
#include <iostream>

#include "cli_context.hpp"
#include "cluster_placement.hpp"
#include "config/setting_values.hpp"
#include "engine/matrix_runner.hpp"
#include "engine/matrix_session.hpp"
#include "engine/run_preflight.hpp"
#include "matrix_command.hpp"
#include "option_parsing.hpp"
#include "presets/selection.hpp"
#include "progress_line.hpp"
#include "report.hpp"
#include "reports/fail_under.hpp"
#include "reports/replay_line.hpp"
#include "reports/run_history.hpp"
#include "reports/scenario_recording.hpp"
#include "reports/session_report.hpp"
#include "run_options.hpp"
#include "session.hpp"
#include "store/session_resume.hpp"
#include "store/store.hpp"
#include "util/errors.hpp"
#include "workflow_choice.hpp"

namespace po = boost::program_options;

namespace sbx::cli {
namespace {

void check(const boost::program_options::variables_map &vm, int workers, RunOptions &options);

RunOptions parse(const std::vector<std::string> &args) {
    RunOptions options;
    int workers = 0;
    po::options_description description("run options");
    description.add_options()("workflow,w", po::value(&options.workflow), "workflow name or id")(
        "runs", po::value(&options.recorded.runs), "runs per preset (default 1)")(
        "seed", po::value(&options.seed), "seed for input generation")(
        "preset-file", po::value(&options.recorded.preset_files)->composing(), "JSON preset file")(
        "preset-count", po::value(&options.recorded.preset_count),
        "presets to generate (default 3)")("workers", po::value(&workers), "runs executed at once")(
        "all-workflows", po::bool_switch(&options.all_workflows), "workflow simulations")(
        "sections", po::bool_switch(&options.sections), "section simulations over targets:")(
        "details", po::bool_switch(&options.details), "results grouped per preset")(
        "json", po::bool_switch(&options.json), "print the report as JSON")(
        "keep-workspaces", po::bool_switch(&options.keep_workspaces),
        "keep each run's workspace directory")(
        "fail-under", po::value(&options.fail_under),
        "exit 1 when any preset's ROI is below this value (a CI gate)")(
        "recover", po::bool_switch(&options.recover), "finish the interrupted run")(
        "on", po::value(&options.recorded.on), "where the runs are made: local or slurm");
    const auto vm = parse_options("run", args, description);
    check(vm, workers, options);
    return options;
}

// The ranges and combinations `run` refuses; sets options.workers from `workers`.
void check(const po::variables_map &vm, int workers, RunOptions &options) {
    if (options.recover) {
        refuse_with_recover("run", vm, {"seed", "runs", "preset-file", "preset-count", "on"});
    }
    if (vm.count("seed") && options.seed < 0) {
        throw InputError("run: --seed " + std::to_string(options.seed) +
                         " must be a whole number from 0 up; leave it out for a random seed");
    }
    if (vm.count("fail-under") && !(options.fail_under >= 0 && options.fail_under <= 1)) {
        throw InputError("run: --fail-under " + std::to_string(options.fail_under) +
                         " must be an ROI between 0 and 1, e.g. --fail-under 0.9");
    }
    if (vm.count("workflow") && options.workflow.empty()) {
        throw InputError("run: --workflow needs a workflow name or id");
    }
    if (options.recorded.runs < 1) {
        throw InputError("run: --runs " + std::to_string(options.recorded.runs) +
                         " must be at least 1");
    }
    if (options.recorded.preset_count < 1 || options.recorded.preset_count > 10000) {
        throw InputError("run: --preset-count " + std::to_string(options.recorded.preset_count) +
                         " must be from 1 to 10000");
    }
    if (vm.count("workers") && (workers < 1 || workers > static_cast<int>(config::kMaxWorkers))) {
        throw InputError("run: --workers " + std::to_string(workers) + " must be from 1 to " +
                         std::to_string(config::kMaxWorkers));
    }
    options.workers = static_cast<unsigned>(std::max(workers, 0));
    if (vm.count("on")) {
        options.recorded.on = checked_placement("run", options.recorded.on);
    }
    if (options.recorded.on == "slurm" && (options.all_workflows || options.sections)) {
        throw InputError(
            "run: --on slurm makes one workflow's matrix (run WORKFLOW); --all-workflows and "
            "--sections run on this host: leave --on out");
    }
    if (static_cast<int>(options.all_workflows) + static_cast<int>(options.sections) +
            static_cast<int>(!options.workflow.empty()) >
        1) {
        throw InputError(
            "run: --workflow, --all-workflows and --sections choose different "
            "modes; give one of them");
    }
}

// --recover: the interrupted session of `command`, reopened, and the options it ran with.
void recover_options(const config::Settings &settings, const std::string &command,
                     RunOptions &options) {
    const auto database = std::filesystem::path(settings.data_dir) / "metrics.db";
    store::Store store(database);
    const auto resumed = store::resume_latest_session(store, command, database.string());
    options.resumed_session = resumed.id;
    options.seed = resumed.seed.value_or(0);
    options.recorded = engine::recovered_run_options(resumed.options);
}

// The matrix of `workflow` under each preset, made here or (--on slurm) by a job array.
std::vector<engine::CellSummary> run_matrix(CliContext &context, const RunOptions &options,
                                            const std::vector<std::string> &args,
                                            const config::Workflow &workflow,
                                            const std::vector<presets::Preset> &presets,
                                            engine::PluginSet &plugins, store::Store &store,
                                            int64_t session) {
    const auto plans =
        engine::preset_cell_plans(workflow, presets, {options.recorded.runs, options.seed, false});
    ProgressLine progress(context.options);
    Placement placement(context, checked_placement("run", options.recorded.on), store, session,
                        options.resumed_session != 0, "run", args, options.seed);
    const engine::MatrixContext matrix =
        matrix_context(context, store, session, options.resumed_session != 0, progress.observer(),
                       placement.remote());
    auto summaries = within_session(store, session, [&] {
        return engine::MatrixRunner(matrix, plugins,
                                    effective_workers(options.workers, context.settings))
            .run(plans);
    });
    placement.finished();
    progress.stop();
    return summaries;
}

// The cells as JSON (--json) or as a table with where the session is recorded.
void print_run(const config::Settings &settings, const RunOptions &options,
               const config::Workflow &workflow, const std::vector<engine::CellSummary> &summaries,
               const std::vector<store::PluginFailure> &disabled, int64_t session) {
    const std::string commands = reports::command_prefix(settings.source, settings.data_dir);
    const auto database = std::filesystem::path(settings.data_dir) / "metrics.db";
    if (options.json) {
        std::cout << nlohmann::json{{"workflow", workflow.name},
                                    {"session", session},
                                    {"seed", options.seed},
                                    {"database", database.string()},
                                    {"cells", cells_to_json(summaries, commands)},
                                    {"disabled_plugins", reports::disabled_plugins_json(disabled)}}
                         .dump(2)
                  << '\n';
    } else {
        print_cell_table(workflow.name, options.recorded.runs, settings.predictor, summaries,
                         commands);
        std::printf("\nrecorded as session %lld in %s (seed %lld)\n",
                    static_cast<long long>(session), database.c_str(),
                    static_cast<long long>(options.seed));
    }
    std::fflush(stdout);
}

}  // namespace

int run_run_command(CliContext &context, const std::vector<std::string> &args) {
    auto options = parse(args);
    auto &settings = context.settings;
    settings.keep_workspaces = settings.keep_workspaces || options.keep_workspaces;
    // Without a workflow, a settings file that lists targets means section simulations.
    const bool sections = options.sections || (options.workflow.empty() &&
                                               !settings.targets.empty() && !options.all_workflows);
    const config::Workflow *chosen = options.all_workflows || sections
                                         ? nullptr
                                         : &choose_workflow(context, "run", options.workflow);
    if (options.recorded.on == "slurm" && sections) {
        throw InputError(
            "run: --on slurm makes one workflow's matrix (run WORKFLOW); these "
            "settings list targets:, which means section simulations, and they run "
            "on this host: name a workflow or leave --on out");
    }
    if (options.recover) {
        recover_options(settings,
                        options.all_workflows ? "run --all-workflows"
                        : sections            ? "run --sections"
                                              : "run " + chosen->name,
                        options);
    } else if (options.seed < 0) {
        options.seed = random_seed();
    }
    if (options.all_workflows) {
        return run_workflow_simulations(context, options);
    }
    if (sections) {
        return run_section_simulations(context, options);
    }
    const auto &workflow = *chosen;
    const auto presets = presets::choose_presets(
        {options.recorded.preset_files, options.recorded.preset_count,
         static_cast<uint64_t>(options.seed), &settings, settings.preset_env});

    engine::PluginSet plugins(settings, context.registry());
    resolve_plugins_for(plugins, {&workflow}, presets);
    // Before any run or session: a limit that cannot hold as asked stops here (exit 2).
    if (options.recorded.on != "slurm") {
        engine::refuse_unrunnable_run(plugins, settings, workflow, presets);
    }
    store::Store store(std::filesystem::path(settings.data_dir) / "metrics.db");
    const int64_t session =
        engine::open_matrix_session(store, plugins, settings,
                                    {options.resumed_session, "run " + workflow.name, options.seed,
                                     [&] { return engine::recorded_options(options.recorded); }});
    const auto summaries =
        run_matrix(context, options, args, workflow, presets, plugins, store, session);
    reports::extend_roi_history(store, settings.data_dir, summaries);
    const auto disabled = disabled_plugins(store, session);
    print_run(settings, options, workflow, summaries, disabled, session);
    return finish_with_disabled_plugins(
        disabled, settings.plugin_host.strict,
        gate_exit(reports::fail_under_failure(summaries, options.fail_under)));
}

}  // namespace sbx::cli
