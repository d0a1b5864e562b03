// `simulate-temporal-trajectory WORKFLOW`: the workflow through five stages of growing
// hostility; per stage ROI, degradation, resilience and stability, recorded in metrics.db
// (trajectory_stages), foresight_history.json and roi_history.json.
#include <filesystem>
#include <iostream>

#include "cluster_placement.hpp"
#include "engine/matrix_runner.hpp"
#include "engine/matrix_session.hpp"
#include "engine/session_options.hpp"
#include "matrix_command.hpp"
#include "output_file.hpp"
#include "presets/scenarios.hpp"
#include "progress_line.hpp"
#include "reports/trajectory_recording.hpp"
#include "session.hpp"
#include "util/atomic_file.hpp"
#include "workflow_choice.hpp"

namespace po = boost::program_options;

namespace sbx::cli {

namespace {

struct TrajectoryOptions {
    std::string workflow;
    bool recover = false;
    std::string plot;
    MatrixOptions matrix;
};

TrajectoryOptions parse(const std::vector<std::string> &args) {
    TrajectoryOptions options;
    po::options_description description("simulate-temporal-trajectory options");
    description.add_options()("workflow", po::value(&options.workflow), "workflow name or id")(
        "recover", po::bool_switch(&options.recover), "finish the interrupted trajectory")(
        "plot", po::value(&options.plot), "write a line chart of the stages to FILE.svg");
    po::positional_options_description positional;
    positional.add("workflow", 1);
    const auto given = parse_matrix_command("simulate-temporal-trajectory", args, description,
                                            positional, options.matrix);
    if (options.recover) {
        refuse_with_recover("simulate-temporal-trajectory", given, {"seed", "repetitions", "on"});
    }
    if (given.count("plot") != 0) {
        check_output_file(options.plot, "simulate-temporal-trajectory: --plot", "trajectory.svg");
    }
    return options;
}

void print_result(const TrajectoryOptions &options, const std::string &workflow, int64_t session,
                  const std::vector<scoring::StageMetrics> &metrics,
                  const std::filesystem::path &data_dir) {
    if (options.matrix.json) {
        const nlohmann::json out{{"workflow", workflow},
                                 {"session", session},
                                 {"seed", options.matrix.seed},
                                 {"stages", reports::trajectory_stages_json(metrics)}};
        std::cout << out.dump(2) << '\n';
    } else {
        std::cout << reports::trajectory_text(workflow, metrics);
        std::printf("\nrecorded as session %lld in %s; foresight history in %s\n",
                    static_cast<long long>(session), (data_dir / "metrics.db").c_str(),
                    (data_dir / "foresight_history.json").c_str());
    }
    if (!options.plot.empty()) {
        write_file_atomically(options.plot, reports::trajectory_chart(workflow, metrics));
        if (!options.matrix.json) {
            std::printf("chart written to %s\n", options.plot.c_str());
        }
    }
    std::fflush(stdout);
}

}  // namespace

int run_trajectory_command(CliContext &context, const std::vector<std::string> &args) {
    auto given = parse(args);
    auto &options = given.matrix;
    auto &settings = context.settings;
    settings.keep_workspaces = settings.keep_workspaces || options.keep_workspaces;
    const auto &workflow = choose_workflow(context, "simulate-temporal-trajectory", given.workflow);
    const std::string command = "simulate-temporal-trajectory " + workflow.name;
    const std::filesystem::path data_dir = settings.data_dir;
    store::Store store(data_dir / "metrics.db");
    const auto resumed = engine::resume_or_seed(store, command, (data_dir / "metrics.db").string(),
                                                given.recover, options.seed);
    if (resumed) {
        const auto recorded = engine::recovered_trajectory_options(resumed->options);
        options.repetitions = recorded.repetitions;
        options.on = recorded.on;
    }
    const auto stages = presets::trajectory_stages();
    engine::PluginSet plugins(settings, context.registry());
    resolve_plugins_for(plugins, {&workflow}, stages);

    const int64_t session = engine::open_matrix_session(
        store, plugins, settings,
        {resumed ? resumed->id : 0, command, options.seed, [&] {
             return engine::recorded_options(
                 engine::TrajectorySessionOptions{options.repetitions, options.on});
         }});

    const auto plans =
        engine::preset_cell_plans(workflow, stages, {options.repetitions, options.seed, false});
    ProgressLine progress(context.options);
    Placement placement(context, checked_placement("simulate-temporal-trajectory", options.on),
                        store, session, resumed.has_value(), "simulate-temporal-trajectory", args,
                        options.seed);
    const engine::MatrixContext matrix = matrix_context(
        context, store, session, resumed.has_value(), progress.observer(), placement.remote());
    const auto metrics = within_session(store, session, [&] {
        const auto cells =
            engine::MatrixRunner(matrix, plugins, effective_workers(options.workers, settings))
                .run(plans);
        return reports::record_trajectory_run(store, session, data_dir, workflow.name, cells);
    });
    placement.finished();
    progress.stop();
    print_result(given, workflow.name, session, metrics, data_dir);
    return finish_with_disabled_plugins(disabled_plugins(store, session),
                                        settings.plugin_host.strict, kExitOk);
}

}  // namespace sbx::cli
