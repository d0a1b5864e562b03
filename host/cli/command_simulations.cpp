// `run --all-workflows` and `run --sections`: every part on its own under each of its
// presets, then all parts together; synergy recorded in metrics.db and roi_history.json,
// each part's ROI change fed to the tracker, converged parts skipped.
#include <cstdio>
#include <iostream>

#include "engine/forecaster.hpp"
#include "engine/matrix_session.hpp"
#include "engine/simulation.hpp"
#include "engine/simulation_plans.hpp"
#include "matrix_command.hpp"
#include "progress_line.hpp"
#include "report.hpp"
#include "reports/fail_under.hpp"
#include "reports/simulation_recording.hpp"
#include "run_options.hpp"
#include "scoring/forecast_scores.hpp"
#include "session.hpp"
#include "util/errors.hpp"

namespace sbx::cli {
namespace {

using nlohmann::json;

void print_result(const engine::Simulation &simulation, const RunOptions &options, int64_t session,
                  const json &result, const std::filesystem::path &database) {
    if (options.json) {
        std::cout << json{{"subject", simulation.subject},
                          {"session", session},
                          {"seed", options.seed},
                          {"presets", result["presets"]},
                          {"rankings", result["rankings"]}}
                         .dump(2)
                  << '\n';
    } else {
        std::cout << reports::simulation_text(simulation, result, options.details);
        print_rankings("all recorded cycles, by total RAROI", result["rankings"]);
        std::printf("\nrecorded as session %lld in %s\n", static_cast<long long>(session),
                    database.c_str());
    }
    std::fflush(stdout);
}

int run_simulation_command(CliContext &context, RunOptions &options,
                           engine::Simulation simulation) {
    auto &settings = context.settings;
    const std::filesystem::path data_dir = settings.data_dir;
    const auto tracker_settings = scoring::tracker_settings_from_environment();
    engine::skip_converged_parts(simulation, data_dir / (simulation.subject + ".flags"),
                                 tracker_settings);
    if (simulation.parts.empty()) {
        std::printf("every part of the %s simulation has converged; nothing to run\n",
                    simulation.subject.c_str());
        return kExitOk;
    }
    engine::PluginSet plugins(settings, context.registry());
    std::vector<const config::Workflow *> workflows;
    for (const auto &part : simulation.parts) {
        workflows.push_back(&part.workflow);
    }
    resolve_plugins_for(plugins, workflows, simulation.presets);
    store::Store store(data_dir / "metrics.db");
    const int64_t session = engine::open_matrix_session(
        store, plugins, settings,
        {options.resumed_session,
         simulation.subject == "workflows" ? "run --all-workflows" : "run --sections", options.seed,
         [&] { return engine::recorded_options(options.recorded); }});
    ProgressLine progress(context.options);
    const engine::MatrixContext matrix =
        matrix_context(context, store, session, options.resumed_session != 0, progress.observer());
    const json result = within_session(store, session, [&] {
        engine::MatrixRunner runner(matrix, plugins, effective_workers(options.workers, settings));
        const auto outcomes =
            engine::run_simulation(simulation, runner, options.recorded.runs, options.seed);
        engine::Forecaster forecaster(plugins, store, session);
        return reports::record_simulation(store, session, data_dir, simulation, outcomes,
                                          scoring::with_adapted_tolerance(tracker_settings, store),
                                          forecaster);
    });
    progress.stop();
    print_result(simulation, options, session, result, data_dir / "metrics.db");
    return finish_with_disabled_plugins(
        disabled_plugins(store, session), settings.plugin_host.strict,
        gate_exit(reports::fail_under_failure(result, options.fail_under)));
}

presets::SelectionInputs preset_inputs(const RunOptions &options,
                                       const config::Settings &settings) {
    return {options.recorded.preset_files, options.recorded.preset_count,
            static_cast<uint64_t>(options.seed), &settings, settings.preset_env};
}

}  // namespace

int run_workflow_simulations(CliContext &context, RunOptions &options) {
    return run_simulation_command(
        context, options,
        engine::workflow_simulation(context.settings, preset_inputs(options, context.settings)));
}

int run_section_simulations(CliContext &context, RunOptions &options) {
    return run_simulation_command(
        context, options,
        engine::section_simulation(context.settings, preset_inputs(options, context.settings)));
}

}  // namespace sbx::cli
