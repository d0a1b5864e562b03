// `run-scenarios WORKFLOW`: the counterfactual scenario matrix, scored, recorded, exported.
#include <spdlog/spdlog.h>
#include <boost/program_options.hpp>
#include <iostream>
#include <thread>

#include "cli_context.hpp"
#include "cluster_placement.hpp"
#include "engine/matrix_session.hpp"
#include "engine/scenario_matrix.hpp"
#include "engine/scenario_preflight.hpp"
#include "engine/session_options.hpp"
#include "matrix_command.hpp"
#include "presets/scenarios.hpp"
#include "progress_line.hpp"
#include "reports/replay_line.hpp"
#include "reports/scenario_recording.hpp"
#include "reports/session_report.hpp"
#include "scoring/scenario_gate.hpp"
#include "session.hpp"
#include "session_reports.hpp"
#include "util/atomic_file.hpp"
#include "util/errors.hpp"
#include "workflow_choice.hpp"

namespace po = boost::program_options;

namespace sbx::cli {
namespace {

using nlohmann::json;

using Gate = scoring::ScenarioGate;

struct Options {
    std::string workflow;
    bool all_scenarios = false;
    bool recover = false;
    int shrink_runs = 100;  // the run budget for shrinking each polyglot failure; 0: none
    MatrixOptions matrix;
    Gate gate;
    std::vector<std::pair<std::string, std::string>> reports;  // --report FORMAT:FILE
};

Options parse(const std::vector<std::string> &args) {
    Options options;
    std::vector<std::string> gates;
    std::vector<std::string> reports;
    po::options_description description("run-scenarios options");
    description.add_options()("workflow", po::value(&options.workflow), "workflow name or id")(
        "all-scenarios", po::bool_switch(&options.all_scenarios), "add the three extra scenarios")(
        "recover", po::bool_switch(&options.recover), "finish the interrupted matrix")(
        "shrink-runs", po::value(&options.shrink_runs),
        "runs to spend shrinking each polyglot failure (0: none)")(
        "fail-on", po::value(&gates)->composing(), "exit 1 on a condition")(
        "report", po::value(&reports)->composing(), "FORMAT:FILE, written as it finishes");
    po::positional_options_description positional;
    positional.add("workflow", 1);
    const auto vm =
        parse_matrix_command("run-scenarios", args, description, positional, options.matrix);
    if (options.recover) {
        refuse_with_recover("run-scenarios", vm, {"seed", "repetitions", "all-scenarios", "on"});
    }
    for (const auto &gate : gates) {
        scoring::parse_gate(gate, options.gate);
    }
    for (const auto &report : reports) {
        options.reports.push_back(parse_report_target(report, "run-scenarios --report"));
    }
    if (options.shrink_runs < 0 || options.shrink_runs > 100000) {
        throw InputError("run-scenarios: --shrink-runs " + std::to_string(options.shrink_runs) +
                         " must be from 0 (no shrinking) to 100000");
    }
    return options;
}

// --recover: the matrix as the interrupted session planned it. Returns whether its fault
// scenarios repeat as robustness scenarios do.
bool take_resumed_options(Options &options, config::Settings &settings,
                          const store::ResumableSession &resumed) {
    const auto recorded = engine::recovered_scenario_options(resumed.options);
    options.matrix.repetitions = recorded.repetitions;
    settings.robustness_repetitions = recorded.robustness_repetitions;
    options.all_scenarios = recorded.all_scenarios;
    options.matrix.on = recorded.on;
    return recorded.fault_scenarios_repeat;
}

void print_text(const reports::ScenarioRun &run, const std::vector<engine::CellPlan> &plans,
                size_t scenarios, unsigned workers, bool has_baseline,
                const std::filesystem::path &data_dir) {
    std::cout << reports::scenario_heading(run, plans, scenarios, workers, has_baseline);
    std::cout << reports::scenario_text(run);
    std::printf("\nrecorded as session %lld in %s; exports in %s\n",
                static_cast<long long>(run.session), (data_dir / "metrics.db").c_str(),
                data_dir.c_str());
}

// The reports asked for, then the summary: JSON or text.
void report_run(const Options &options, const reports::ScenarioRun &run,
                const std::vector<engine::CellPlan> &plans, size_t scenarios, unsigned workers,
                bool has_baseline, const std::vector<store::PluginFailure> &disabled,
                const std::filesystem::path &data_dir) {
    // The session is finished and recorded: a report reads it back as `report` would.
    for (const auto &[format, file] : options.reports) {
        write_file_atomically(file, render_session_report(data_dir, run.session, format));
    }
    if (options.matrix.json) {
        auto summary = reports::scenario_summary(run);
        summary["disabled_plugins"] = reports::disabled_plugins_json(disabled);
        std::cout << summary.dump(2) << '\n';
    } else {
        print_text(run, plans, scenarios, workers, has_baseline, data_dir);
    }
    std::fflush(stdout);
}

}  // namespace

int run_run_scenarios_command(CliContext &context, const std::vector<std::string> &args) {
    auto options = parse(args);
    auto &settings = context.settings;
    settings.keep_workspaces = settings.keep_workspaces || options.matrix.keep_workspaces;
    const auto &workflow = choose_workflow(context, "run-scenarios", options.workflow);
    const config::Workflow *baseline =
        workflow.baseline.empty() ? nullptr : settings.find_workflow(workflow.baseline);
    const std::string command = "run-scenarios " + workflow.name;
    const std::filesystem::path data_dir = settings.data_dir;

    store::Store store(data_dir / "metrics.db");
    const auto resumed = engine::resume_or_seed(store, command, (data_dir / "metrics.db").string(),
                                                options.recover, options.matrix.seed);
    const bool fault_scenarios_repeat =
        !resumed || take_resumed_options(options, settings, *resumed);
    const auto scenarios = presets::configured_scenarios(settings, options.all_scenarios);
    // Read before any run, so a typo in their variables costs nothing.
    const auto scorers = reports::scenario_scorers(workflow);

    engine::PluginSet plugins(settings, context.registry());
    resolve_plugins_for(plugins, {&workflow, baseline != nullptr ? baseline : &workflow},
                        scenarios);
    if (options.matrix.on != "slurm") {
        engine::refuse_unrunnable_scenarios(plugins, settings, workflow, baseline, scenarios);
    }
    const auto plans = engine::scenario_cell_plans(
        workflow, baseline, scenarios, options.matrix.repetitions, settings.robustness_repetitions,
        options.matrix.seed, fault_scenarios_repeat);
    const int64_t session = engine::open_matrix_session(
        store, plugins, settings,
        {resumed ? resumed->id : 0, command, options.matrix.seed, [&] {
             return engine::recorded_options(engine::ScenarioSessionOptions{
                 options.matrix.repetitions, settings.robustness_repetitions, options.all_scenarios,
                 options.matrix.on, true});
         }});

    const unsigned workers = effective_workers(options.matrix.workers, settings);
    ProgressLine progress(context.options);
    Placement placement(context, checked_placement("run-scenarios", options.matrix.on), store,
                        session, resumed.has_value(), "run-scenarios", args, options.matrix.seed);
    const engine::MatrixContext matrix = matrix_context(
        context, store, session, resumed.has_value(), progress.observer(), placement.remote());
    const auto run = within_session(store, session, [&] {
        const auto summaries = engine::MatrixRunner(matrix, plugins, workers).run(plans);
        return reports::score_and_record_scenarios(
            settings, context.registry(), store, workflow, scenarios, summaries,
            {session, options.matrix.seed, options.matrix.repetitions, options.shrink_runs},
            scorers);
    });
    placement.finished();
    progress.stop();
    const auto disabled = disabled_plugins(store, session);
    report_run(options, run, plans, scenarios.size(), workers, baseline != nullptr, disabled,
               data_dir);
    return finish_with_disabled_plugins(disabled, settings.plugin_host.strict,
                                        gate_exit(scoring::gate_failure(options.gate, run.report)));
}

}  // namespace sbx::cli
