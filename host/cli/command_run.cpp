// `run --workflow NAME`: the workflow under each preset, recorded and reported.
#include <unistd.h>

#include <spdlog/spdlog.h>
#include <boost/program_options.hpp>
#include <cstdlib>
#include <iostream>
#include <random>

#include "cli_context.hpp"
#include "engine/cell_runner.hpp"
#include "engine/plugin_set.hpp"
#include "presets/preset.hpp"
#include "report.hpp"
#include "store/store.hpp"
#include "util/errors.hpp"

namespace po = boost::program_options;

namespace sbx::cli {
namespace {

struct RunOptions {
    std::string workflow;
    int runs = 1;
    int64_t seed = -1;
    std::vector<std::string> preset_files;
    bool json = false;
    bool keep_workspaces = false;
    double fail_under = -1;  // exit 1 when a cell's ROI is below this
};

RunOptions parse(const std::vector<std::string> &args) {
    RunOptions options;
    po::options_description description("run options");
    description.add_options()("workflow,w", po::value(&options.workflow), "workflow name or id")(
        "runs", po::value(&options.runs), "runs per preset (default 1)")(
        "seed", po::value(&options.seed), "seed for input generation")(
        "preset-file", po::value(&options.preset_files)->composing(), "JSON preset file")(
        "json", po::bool_switch(&options.json), "print the report as JSON")(
        "keep-workspaces", po::bool_switch(&options.keep_workspaces),
        "keep each run's workspace directory")(
        "fail-under", po::value(&options.fail_under),
        "exit 1 when any preset's ROI is below this value (a CI gate)");
    po::variables_map vm;
    try {
        po::store(po::command_line_parser(args)
                      .options(description)
                      .style(po::command_line_style::default_style &
                             ~po::command_line_style::allow_guessing)
                      .run(),
                  vm);
        po::notify(vm);
    } catch (const po::error &e) {
        throw InputError(std::string("run: ") + e.what() + "; run `sandbox-runner --help`");
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
    if (options.runs < 1) {
        throw InputError("run: --runs " + std::to_string(options.runs) + " must be at least 1");
    }
    return options;
}

std::vector<presets::Preset> choose_presets(const RunOptions &options,
                                            const config::Settings &settings) {
    std::vector<presets::Preset> chosen;
    for (const auto &file : options.preset_files) {
        for (auto &preset : presets::load_preset_file(file)) {
            chosen.push_back(std::move(preset));
        }
    }
    if (!chosen.empty()) {
        return chosen;
    }
    if (const char *text = std::getenv("SANDBOX_ENV_PRESETS"); text && *text) {
        return presets::parse_presets(text, "SANDBOX_ENV_PRESETS");
    }
    for (size_t i = 0; i < settings.presets.size(); ++i) {
        const auto origin = i < settings.preset_locations.size()
                                ? settings.preset_locations[i].str()
                                : settings.source;
        chosen.push_back(presets::make_preset(settings.presets[i], origin, i));
    }
    if (chosen.empty()) {
        chosen.push_back(presets::make_preset({{"SCENARIO_NAME", "normal"}}, "built-in", 0));
    }
    return chosen;
}

const config::Workflow &choose_workflow(const RunOptions &options,
                                        const config::Settings &settings) {
    if (options.workflow.empty()) {
        if (settings.workflows.size() == 1) {
            return settings.workflows.front();
        }
        throw InputError("run: --workflow is required when " + settings.source + " defines " +
                         std::to_string(settings.workflows.size()) + " workflows");
    }
    if (const auto *workflow = settings.find_workflow(options.workflow)) {
        return *workflow;
    }
    std::string names;
    for (const auto &w : settings.workflows) {
        names += (names.empty() ? "" : ", ") + w.name;
    }
    throw InputError("run: --workflow '" + options.workflow + "' is not defined in " +
                     settings.source +
                     "; defined workflows: " + (names.empty() ? std::string("none") : names));
}

// Marks how a session ended without hiding the error that ended it: a failure to write
// the mark (the database is the problem, say) is logged, and the original error goes on.
void close_session(store::Store &store, int64_t session, const char *status) noexcept {
    try {
        store.finish_session(session, status);
    } catch (const std::exception &e) {
        spdlog::error("could not mark session {} as {}: {}", session, status, e.what());
    }
}

}  // namespace

int run_run_command(CliContext &context, const std::vector<std::string> &args) {
    auto options = parse(args);
    auto &settings = context.settings;
    settings.keep_workspaces = settings.keep_workspaces || options.keep_workspaces;
    const auto &workflow = choose_workflow(options, settings);
    const auto presets = choose_presets(options, settings);
    if (options.seed < 0) {
        options.seed = static_cast<int64_t>(std::random_device{}() & 0x7fffffff);
    }

    if (settings.workers > 1) {
        spdlog::warn(
            "workers: {} is accepted but runs are still executed one at a time in this "
            "version",
            settings.workers);
    }
    engine::PluginSet plugins(settings, context.registry());
    // Resolve every plugin this command will need before anything is recorded, so a typo
    // is exit 2 with an empty database rather than a half-written session.
    (void)plugins.executor_for(workflow);
    for (const auto &preset : presets) {
        const auto &strategy = preset.body.value("SANDBOX_STUB_STRATEGY", nlohmann::json());
        if (strategy.is_string()) {
            (void)plugins.stub(strategy.get<std::string>(),
                               preset.origin + ": SANDBOX_STUB_STRATEGY");
        }
    }
    store::Store store(std::filesystem::path(settings.data_dir) / "metrics.db");
    const int64_t session =
        store.begin_session("run " + workflow.name, settings.source, options.seed);
    std::vector<store::PluginRecord> used;
    for (const auto &plugin : plugins.used()) {
        used.push_back(
            {plugin->id(), plugin->kind(), plugin->descriptor().version,
             std::to_string(plugin->abi().major) + "." + std::to_string(plugin->abi().minor),
             plugin->path().string()});
    }
    store.record_plugins(session, used);

    engine::WorkflowRunner runner(plugins, settings, std::filesystem::current_path(),
                                  (std::filesystem::path(settings.data_dir) / "state").string());
    engine::CellRunner cells(plugins, runner, store, session);
    std::vector<engine::CellSummary> summaries;
    try {
        for (const auto &preset : presets) {
            summaries.push_back(cells.run(workflow, preset, {options.runs, options.seed, false}));
        }
    } catch (const engine::Cancelled &) {
        close_session(store, session, "interrupted");
        throw;
    } catch (...) {
        close_session(store, session, "failed");
        throw;
    }
    store.finish_session(session, "finished");

    if (options.json) {
        std::cout
            << nlohmann::json{{"workflow", workflow.name},
                              {"session", session},
                              {"seed", options.seed},
                              {"database",
                               (std::filesystem::path(settings.data_dir) / "metrics.db").string()},
                              {"cells", cells_to_json(summaries)}}
                   .dump(2)
            << '\n';
    } else {
        print_cell_table(workflow.name, options.runs, settings.predictor, summaries);
        std::printf("\nrecorded as session %lld in %s (seed %lld)\n",
                    static_cast<long long>(session),
                    (std::filesystem::path(settings.data_dir) / "metrics.db").c_str(),
                    static_cast<long long>(options.seed));
    }
    if (options.fail_under >= 0) {
        for (const auto &cell : summaries) {
            if (cell.roi < options.fail_under) {
                std::fprintf(
                    stderr,
                    "sandbox-runner: ROI %.3f under preset '%s' is below --fail-under %.3f\n",
                    cell.roi, cell.preset.c_str(), options.fail_under);
                return kExitGateFailed;
            }
        }
    }
    return kExitOk;
}

}  // namespace sbx::cli
