// `simulate-temporal-trajectory WORKFLOW`: the workflow through five stages of growing
// hostility; per stage ROI, degradation, resilience and stability, recorded in metrics.db
// (trajectory_stages), foresight_history.json and roi_history.json.
#include <filesystem>
#include <iostream>

#include "cluster_placement.hpp"
#include "engine/matrix_runner.hpp"
#include "matrix_command.hpp"
#include "output_file.hpp"
#include "presets/scenarios.hpp"
#include "progress_line.hpp"
#include "reports/foresight_history.hpp"
#include "reports/roi_history.hpp"
#include "reports/scenario_recording.hpp"
#include "reports/svg_chart.hpp"
#include "session.hpp"
#include "store/matrix_records.hpp"
#include "store/session_resume.hpp"
#include "util/atomic_file.hpp"
#include "workflow_choice.hpp"

namespace po = boost::program_options;

namespace sbx::cli {

namespace {

void print_stages(const std::string &workflow, const std::vector<scoring::StageMetrics> &stages) {
    std::printf("temporal trajectory of %s\n\n", workflow.c_str());
    std::printf("%-16s %7s %12s %11s %10s\n", "stage", "roi", "degradation", "resilience",
                "stability");
    for (const auto &stage : stages) {
        std::printf("%-16s %7.3f %+12.3f %11.3f %10.3f\n", stage.stage.c_str(), stage.roi,
                    stage.degradation, stage.resilience, stage.stability);
    }
}

// ROI, degradation and resilience against the stage's index (the stages' order is fixed,
// normal first), one line each; y spans at least 0..1, where ROI and resilience live.
std::string trajectory_chart(const std::string &workflow,
                             const std::vector<scoring::StageMetrics> &stages) {
    reports::LineChart chart;
    chart.title = "temporal trajectory of " + workflow;
    chart.x_label = stages.empty()
                        ? "stage"
                        : "stage (0 = " + stages.front().stage + " ... " +
                              std::to_string(stages.size() - 1) + " = " + stages.back().stage + ")";
    chart.y_label = "value";
    chart.x_integers = true;
    chart.y_min = 0;
    chart.y_max = 1;
    chart.series = {{"roi", {}, {}, {}, false},
                    {"degradation", {}, {}, {}, false},
                    {"resilience", {}, {}, {}, false}};
    for (size_t i = 0; i < stages.size(); ++i) {
        const auto x = static_cast<double>(i);
        chart.series[0].points.push_back({x, stages[i].roi});
        chart.series[1].points.push_back({x, stages[i].degradation});
        chart.series[2].points.push_back({x, stages[i].resilience});
    }
    return reports::render_line_chart(chart);
}

}  // namespace

int run_trajectory_command(CliContext &context, const std::vector<std::string> &args) {
    std::string workflow_name;
    bool recover = false;
    std::string plot;
    MatrixOptions options;
    po::options_description description("simulate-temporal-trajectory options");
    description.add_options()("workflow", po::value(&workflow_name), "workflow name or id")(
        "recover", po::bool_switch(&recover), "finish the interrupted trajectory")(
        "plot", po::value(&plot), "write a line chart of the stages to FILE.svg");
    po::positional_options_description positional;
    positional.add("workflow", 1);
    const auto given = parse_matrix_command("simulate-temporal-trajectory", args, description,
                                            positional, options);
    if (recover) {
        refuse_with_recover("simulate-temporal-trajectory", given, {"seed", "repetitions", "on"});
    }
    if (given.count("plot") != 0) {
        check_output_file(plot, "simulate-temporal-trajectory: --plot", "trajectory.svg");
    }

    auto &settings = context.settings;
    settings.keep_workspaces = settings.keep_workspaces || options.keep_workspaces;
    const auto &workflow = choose_workflow(context, "simulate-temporal-trajectory", workflow_name);
    const std::string command = "simulate-temporal-trajectory " + workflow.name;
    const std::filesystem::path data_dir = settings.data_dir;
    store::Store store(data_dir / "metrics.db");
    std::optional<store::ResumableSession> resumed;
    if (recover) {
        resumed = store::resume_latest_session(store, command, (data_dir / "metrics.db").string());
        options.seed = resumed->seed.value_or(0);
        options.repetitions = resumed->options.value("repetitions", 1);
        options.on = resumed->options.value("on", "local");
    } else if (options.seed < 0) {
        options.seed = random_seed();
    }
    const auto stages = presets::trajectory_stages();
    engine::PluginSet plugins(settings, context.registry());
    resolve_plugins_for(plugins, {&workflow}, stages);

    const int64_t session =
        resumed ? resumed->id
                : store.begin_session(
                      command, settings.source, options.seed,
                      {{"repetitions", options.repetitions},
                       {"on", checked_placement("simulate-temporal-trajectory", options.on)}});
    record_plugins_used(store, session, plugins);

    std::vector<engine::CellPlan> plans;
    plans.reserve(stages.size());
    for (const auto &stage : stages) {
        plans.push_back({&workflow, stage, {options.repetitions, options.seed, false}});
    }
    ProgressLine progress(context.options);
    Placement placement(context, checked_placement("simulate-temporal-trajectory", options.on),
                        store, session, resumed.has_value(), "simulate-temporal-trajectory", args,
                        options.seed);
    const engine::MatrixContext matrix = matrix_context(
        context, store, session, resumed.has_value(), progress.observer(), placement.remote());
    const auto metrics = within_session(store, session, [&] {
        const auto cells =
            engine::MatrixRunner(matrix, plugins, effective_workers(options, settings)).run(plans);
        std::vector<std::pair<std::string, double>> stage_rois;
        stage_rois.reserve(cells.size());
        for (const auto &cell : cells) {
            stage_rois.emplace_back(cell.preset, cell.roi);
        }
        auto stage_metrics = scoring::trajectory_metrics(stage_rois);
        std::vector<store::TrajectoryRow> rows;
        auto history = reports::load_roi_history(data_dir / "roi_history.json");
        for (size_t i = 0; i < stage_metrics.size(); ++i) {
            const auto &stage = stage_metrics[i];
            rows.push_back(
                {stage.stage, stage.roi, stage.degradation, stage.resilience, stage.stability});
            // Trajectory stages extend the per-scenario series with delta = −degradation
            // (no counterfactual is run) and raroi = roi.
            reports::append_series(history, stage.stage, stage.roi, -stage.degradation, stage.roi,
                                   cells[i].metrics);
        }
        store::record_trajectory(store, session, workflow.name, rows);
        reports::append_foresight_cycle(
            data_dir / "foresight_history.json",
            reports::foresight_cycle(workflow.name, session, stage_metrics));
        reports::save_roi_history(data_dir / "roi_history.json", history);
        return stage_metrics;
    });
    placement.finished();
    progress.stop();

    if (options.json) {
        nlohmann::json out{{"workflow", workflow.name},
                           {"session", session},
                           {"seed", options.seed},
                           {"stages", nlohmann::json::array()}};
        for (const auto &stage : metrics) {
            out["stages"].push_back({{"stage", stage.stage},
                                     {"roi", stage.roi},
                                     {"degradation", stage.degradation},
                                     {"resilience", stage.resilience},
                                     {"stability", stage.stability}});
        }
        std::cout << out.dump(2) << '\n';
    } else {
        print_stages(workflow.name, metrics);
        std::printf("\nrecorded as session %lld in %s; foresight history in %s\n",
                    static_cast<long long>(session), (data_dir / "metrics.db").c_str(),
                    (data_dir / "foresight_history.json").c_str());
    }
    if (!plot.empty()) {
        write_file_atomically(plot, trajectory_chart(workflow.name, metrics));
        if (!options.json) {
            std::printf("chart written to %s\n", plot.c_str());
        }
    }
    std::fflush(stdout);
    return finish_with_disabled_plugins(disabled_plugins(store, session),
                                        settings.plugin_host.strict, kExitOk);
}

}  // namespace sbx::cli
