// `find-boundaries WORKFLOW`: the failure-boundary search (docs/user-guide.md
// "find-boundaries"). Per axis, probes of one preset each (a cell of --runs runs) find the
// mildest setting that breaks the workflow and the harshest that holds; the brackets are
// kept in preset_boundaries.json for the next search and for run-autonomous.
#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>

#include "autonomous/boundary_finding.hpp"
#include "autonomous/boundary_options.hpp"
#include "autonomous/boundary_report.hpp"
#include "cli_context.hpp"
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

struct FindOptions {
    std::string workflow;
    std::vector<std::string> axes;
    autonomous::BoundaryOptions search;
    bool debug = false;
    bool json_output = false;
};

FindOptions parse(const std::vector<std::string> &args) {
    FindOptions options;
    auto &search = options.search;
    po::options_description description("find-boundaries options");
    description.add_options()("workflow", po::value(&options.workflow), "the workflow")(
        "axis", po::value(&options.axes)->composing(), "KEY or KEY:MILD:HARSH[:PRECISION]")(
        "runs", po::value(&search.runs), "runs per probe (default 3)")(
        "seed", po::value(&search.seed), "seed of the runs' inputs")(
        "workers", po::value(&search.workers), "runs executed at once")(
        "break-below", po::value(&search.break_below),
        "a probe breaks the workflow when its ROI is below this (default 1)")(
        "strategy", po::value(&search.strategy), "bisect (default) or grid")(
        "preset-debug", po::bool_switch(&options.debug), "print every probe and its verdict")(
        "json", po::bool_switch(&options.json_output), "print the boundaries as JSON");
    po::positional_options_description positional;
    positional.add("workflow", 1);
    autonomous::check_boundary_options(
        search, written_options(parse_options("find-boundaries", args, description, positional)));
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

}  // namespace

int run_find_boundaries_command(CliContext &context, const std::vector<std::string> &args) {
    auto options = parse(args);
    auto &settings = context.settings;
    const auto &workflow = choose_workflow(context, "find-boundaries", options.workflow);
    const auto search =
        autonomous::boundary_search(options.search, options.axes,
                                    options.search.seed < 0 ? random_seed() : options.search.seed);
    const std::filesystem::path data_dir = settings.data_dir;
    const auto boundaries_path = reports::preset_boundaries_path(data_dir);
    auto boundaries = reports::load_preset_boundaries(
        boundaries_path, presets::q_policy_path(settings.preset_policy_path, data_dir));

    engine::PluginSet plugins(settings, context.registry());
    resolve_plugins_for(plugins, {&workflow}, {});
    store::Store store(data_dir / "metrics.db");
    const int64_t session =
        store.begin_session("find-boundaries " + workflow.name, settings.source, search.seed,
                            json{{"axes", options.axes}, {"runs", search.runs}});
    record_plugins_used(store, session, plugins);
    // --preset-debug prints each probe as it ends: no progress line between them.
    ProgressLine progress(context.options);
    const engine::MatrixContext matrix = matrix_context(
        context, store, session, false, options.debug ? nullptr : progress.observer());
    const unsigned workers = options.search.workers > 0
                                 ? static_cast<unsigned>(options.search.workers)
                                 : std::max(1u, settings.workers);
    if (!options.json_output) {
        std::printf("%s\n", autonomous::boundary_search_heading(workflow.name, search).c_str());
    }
    SearchPrinter printer(options.debug, options.json_output, search.runs);
    const auto findings = within_session(store, session, [&] {
        engine::MatrixRunner runner(matrix, plugins, workers);
        return autonomous::find_boundaries(runner, plugins, workflow, search, boundaries, printer);
    });
    progress.stop();
    reports::save_preset_boundaries(boundaries_path, boundaries);
    const autonomous::BoundaryRecord record{workflow.name, session, boundaries_path};
    if (options.json_output) {
        std::cout << autonomous::boundary_findings_json(record, search, findings).dump(2) << '\n';
    } else {
        std::cout << autonomous::boundary_findings_text(record, findings);
    }
    std::fflush(stdout);
    return finish_with_disabled_plugins(disabled_plugins(store, session),
                                        settings.plugin_host.strict, kExitOk);
}

}  // namespace sbx::cli
