// `find-boundaries WORKFLOW`: the failure-boundary search (docs/user-guide.md
// "find-boundaries"). Per axis, probes of one preset each (a cell of --runs runs) find the
// mildest setting that breaks the workflow and the harshest that holds; the brackets are
// kept in preset_boundaries.json for the next search and for run-autonomous.
#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>

#include "autonomous/boundary_finding.hpp"
#include "cli_context.hpp"
#include "config/setting_values.hpp"
#include "logging/status_line.hpp"
#include "matrix_command.hpp"
#include "option_parsing.hpp"
#include "presets/boundary_axes.hpp"
#include "presets/preset.hpp"
#include "presets/q_policy.hpp"
#include "progress_line.hpp"
#include "reports/preset_boundaries.hpp"
#include "session.hpp"
#include "util/errors.hpp"
#include "workflow_choice.hpp"

namespace po = boost::program_options;

namespace sbx::cli {
namespace {

using nlohmann::json;

struct AdaptOptions {
    std::string workflow;
    std::vector<std::string> axes;
    int runs = 3;
    int64_t seed = -1;
    int workers = 0;
    double break_below = 1.0;
    std::string strategy;
    bool debug = false;
    bool json_output = false;
};

AdaptOptions parse(const std::vector<std::string> &args) {
    AdaptOptions options;
    po::options_description description("find-boundaries options");
    description.add_options()("workflow", po::value(&options.workflow), "the workflow")(
        "axis", po::value(&options.axes)->composing(), "KEY or KEY:MILD:HARSH[:PRECISION]")(
        "runs", po::value(&options.runs), "runs per probe (default 3)")(
        "seed", po::value(&options.seed), "seed of the runs' inputs")(
        "workers", po::value(&options.workers), "runs executed at once")(
        "break-below", po::value(&options.break_below),
        "a probe breaks the workflow when its ROI is below this (default 1)")(
        "strategy", po::value(&options.strategy), "bisect (default) or grid")(
        "preset-debug", po::bool_switch(&options.debug), "print every probe and its verdict")(
        "json", po::bool_switch(&options.json_output), "print the boundaries as JSON");
    po::positional_options_description positional;
    positional.add("workflow", 1);
    const auto vm = parse_options("find-boundaries", args, description, positional);
    const auto fail = [](const std::string &what) { throw InputError("find-boundaries: " + what); };
    if (options.runs < 1 || options.runs > 100000) {
        fail("--runs " + std::to_string(options.runs) + " must be from 1 to 100000");
    }
    if (vm.count("seed") && options.seed < 0) {
        fail("--seed must be a whole number from 0 up");
    }
    if (vm.count("workers") &&
        (options.workers < 1 || options.workers > static_cast<int>(config::kMaxWorkers))) {
        fail("--workers must be from 1 to " + std::to_string(config::kMaxWorkers));
    }
    if (!(options.break_below > 0 && options.break_below <= 1)) {
        fail("--break-below must be an ROI in (0, 1], e.g. --break-below 0.9");
    }
    if (options.strategy.empty()) {
        options.strategy = "bisect";
    } else if (options.strategy != "bisect" && options.strategy != "grid") {
        fail("--strategy " + options.strategy + ": write bisect or grid");
    }
    return options;
}

// --preset-debug prints every probe and kept bracket; each axis's line goes above the
// progress line.
class SearchPrinter final : public autonomous::BoundaryObserver {
  public:
    SearchPrinter(bool debug, bool json_output, int runs)
        : debug_(debug), json_output_(json_output), runs_(runs) {}

    void bracket_kept(const presets::BoundaryAxis &axis, double holds, double breaks) override {
        if (debug_) {
            std::printf("  %s: the kept bracket %s .. %s is checked first\n", axis.key.c_str(),
                        presets::axis_value_text(axis, holds).c_str(),
                        presets::axis_value_text(axis, breaks).c_str());
        }
    }
    void probed(const presets::BoundaryAxis &axis, const std::string &value, double roi,
                bool broke) override {
        if (debug_) {
            std::printf("  probe %s=%s: roi %.3f -> %s\n", axis.key.c_str(), value.c_str(), roi,
                        broke ? "breaks" : "holds");
        }
    }
    void axis_done(const presets::BoundaryAxis &axis, const std::string &description,
                   int probes) override {
        if (!json_output_) {
            char line[512];
            std::snprintf(line, sizeof(line), "  %-20s %s   (%d probe%s, %d runs)\n",
                          axis.key.c_str(), description.c_str(), probes, probes == 1 ? "" : "s",
                          probes * runs_);
            logging::print_above_status(line);
        }
    }

  private:
    bool debug_;
    bool json_output_;
    int runs_;
};

void print_findings(const AdaptOptions &options, const std::string &workflow, int64_t session,
                    const autonomous::BoundaryFindings &findings,
                    const std::filesystem::path &boundaries_path) {
    const std::string summary = workflow + " " + findings.summary;
    if (options.json_output) {
        std::cout << json{{"workflow", workflow},
                          {"session", session},
                          {"seed", options.seed},
                          {"strategy", options.strategy},
                          {"runs_per_probe", options.runs},
                          {"axes", findings.axes},
                          {"summary", summary},
                          {"boundaries", boundaries_path.string()}}
                         .dump(2)
                  << '\n';
    } else {
        std::printf("%s\nboundaries kept in %s; recorded as session %lld\n", summary.c_str(),
                    boundaries_path.c_str(), static_cast<long long>(session));
    }
    std::fflush(stdout);
}

}  // namespace

int run_find_boundaries_command(CliContext &context, const std::vector<std::string> &args) {
    auto options = parse(args);
    auto &settings = context.settings;
    const auto &workflow = choose_workflow(context, "find-boundaries", options.workflow);
    autonomous::BoundarySearch search;
    for (const auto &spec : options.axes.empty() ? presets::default_axis_keys() : options.axes) {
        search.axes.push_back(presets::parse_axis(spec));
    }
    if (options.seed < 0) {
        options.seed = random_seed();
    }
    search.runs = options.runs;
    search.seed = options.seed;
    search.break_below = options.break_below;
    search.strategy = options.strategy;
    const std::filesystem::path data_dir = settings.data_dir;
    const auto boundaries_path = reports::preset_boundaries_path(data_dir);
    auto boundaries = reports::load_preset_boundaries(
        boundaries_path, presets::q_policy_path(settings.preset_policy_path, data_dir));

    engine::PluginSet plugins(settings, context.registry());
    resolve_plugins_for(plugins, {&workflow}, {});
    store::Store store(data_dir / "metrics.db");
    const int64_t session =
        store.begin_session("find-boundaries " + workflow.name, settings.source, options.seed,
                            json{{"axes", options.axes}, {"runs", options.runs}});
    record_plugins_used(store, session, plugins);
    // --preset-debug prints each probe as it ends: no progress line between them.
    ProgressLine progress(context.options);
    const engine::MatrixContext matrix = matrix_context(
        context, store, session, false, options.debug ? nullptr : progress.observer());
    const unsigned workers = options.workers > 0 ? static_cast<unsigned>(options.workers)
                                                 : std::max(1u, settings.workers);
    if (!options.json_output) {
        std::printf("find-boundaries %s: %zu ax%s, %d run%s per probe, %s (seed %lld)\n",
                    workflow.name.c_str(), search.axes.size(),
                    search.axes.size() == 1 ? "is" : "es", options.runs,
                    options.runs == 1 ? "" : "s", options.strategy.c_str(),
                    static_cast<long long>(options.seed));
    }
    SearchPrinter printer(options.debug, options.json_output, options.runs);
    const auto findings = within_session(store, session, [&] {
        engine::MatrixRunner runner(matrix, plugins, workers);
        return autonomous::find_boundaries(runner, plugins, workflow, search, boundaries, printer);
    });
    progress.stop();
    reports::save_preset_boundaries(boundaries_path, boundaries);
    print_findings(options, workflow.name, session, findings, boundaries_path);
    return finish_with_disabled_plugins(disabled_plugins(store, session),
                                        settings.plugin_host.strict, kExitOk);
}

}  // namespace sbx::cli
