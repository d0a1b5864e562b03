// `find-boundaries WORKFLOW`: the failure-boundary search (docs/user-guide.md
// "find-boundaries"). Per axis, probes of one preset each (a cell of --runs runs) find the
// mildest setting that breaks the workflow and the harshest that holds; the brackets are
// kept in preset_boundaries.json for the next search and for full-autonomous-run.
#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>

#include "cli_context.hpp"
#include "config/setting_values.hpp"
#include "engine/boundary_search.hpp"
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

const char *kind_name(engine::BoundaryResult::Kind kind) {
    switch (kind) {
        case engine::BoundaryResult::Kind::found:
            return "found";
        case engine::BoundaryResult::Kind::holds_everywhere:
            return "holds_everywhere";
        case engine::BoundaryResult::Kind::breaks_everywhere:
            return "breaks_everywhere";
    }
    return "found";
}

// The short form for the closing sentence: "breaks at CONCURRENCY_LEVEL >= 3" where more
// is harsher, "holds at MEMORY_LIMIT >= 12Mi" where less is.
std::string summary_phrase(const presets::BoundaryAxis &axis,
                           const engine::BoundaryResult &result) {
    if (result.kind != engine::BoundaryResult::Kind::found) {
        return engine::describe_boundary(axis, result);
    }
    return axis.harsh > axis.mild
               ? "breaks at " + axis.key + " >= " + presets::axis_value_text(axis, result.breaks)
               : "holds at " + axis.key + " >= " + presets::axis_value_text(axis, result.holds);
}

}  // namespace

int run_find_boundaries_command(CliContext &context, const std::vector<std::string> &args) {
    auto options = parse(args);
    auto &settings = context.settings;
    const auto &workflow = choose_workflow(context, "find-boundaries", options.workflow);
    std::vector<presets::BoundaryAxis> axes;
    for (const auto &spec : options.axes.empty() ? presets::default_axis_keys() : options.axes) {
        axes.push_back(presets::parse_axis(spec));
    }
    if (options.seed < 0) {
        options.seed = random_seed();
    }
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
                    workflow.name.c_str(), axes.size(), axes.size() == 1 ? "is" : "es",
                    options.runs, options.runs == 1 ? "" : "s", options.strategy.c_str(),
                    static_cast<long long>(options.seed));
    }
    json report_axes = json::array();
    std::string summary;
    within_session(store, session, [&] {
        engine::MatrixRunner runner(matrix, plugins, workers);
        for (const auto &axis : axes) {
            const engine::ProbeFunction probe = [&](double value) {
                const std::string text = presets::axis_value_text(axis, value);
                const auto preset = presets::make_preset(
                    json{{"SCENARIO_NAME", axis.key + "=" + text}, {axis.key, text}},
                    "find-boundaries --axis " + axis.key, 0);
                resolve_plugins_for(plugins, {&workflow}, {preset});
                const auto cells =
                    runner.run({{&workflow, preset, {options.runs, options.seed, false}}});
                const double roi = cells.front().roi;
                const bool broke = roi < options.break_below;
                if (options.debug) {
                    std::printf("  probe %s=%s: roi %.3f -> %s\n", axis.key.c_str(), text.c_str(),
                                roi, broke ? "breaks" : "holds");
                }
                return engine::BoundaryProbe{value, broke, roi};
            };
            std::optional<std::pair<double, double>> known;
            const auto kept = boundaries[workflow.name].find(axis.key);
            // A kept bracket is only a head start on the same axis: in this range, in this
            // direction.
            const auto within = [&](double value) {
                return presets::at_least_as_harsh(axis, value, axis.mild) &&
                       presets::at_least_as_harsh(axis, axis.harsh, value);
            };
            if (kept != boundaries[workflow.name].end() && kept->second.kind == "found" &&
                kept->second.unit == axis.unit && within(kept->second.holds) &&
                within(kept->second.breaks) && kept->second.breaks != kept->second.holds &&
                presets::at_least_as_harsh(axis, kept->second.breaks, kept->second.holds)) {
                known = std::pair(kept->second.holds, kept->second.breaks);
                if (options.debug) {
                    std::printf("  %s: the kept bracket %s .. %s is checked first\n",
                                axis.key.c_str(),
                                presets::axis_value_text(axis, known->first).c_str(),
                                presets::axis_value_text(axis, known->second).c_str());
                }
            }
            const auto result = options.strategy == "grid"
                                    ? engine::scan_boundary(axis, probe)
                                    : engine::bisect_boundary(axis, probe, known);
            const int probes = static_cast<int>(result.probes.size());
            boundaries[workflow.name][axis.key] = {
                kind_name(result.kind), result.holds, result.breaks,        axis.unit,
                axis.integer,           probes,       probes * options.runs};
            json probe_list = json::array();
            for (const auto &done : result.probes) {
                probe_list.push_back({{"value", presets::axis_value_text(axis, done.value)},
                                      {"roi", done.roi},
                                      {"broke", done.broke}});
            }
            const std::string description = engine::describe_boundary(axis, result);
            report_axes.push_back(
                {{"key", axis.key},
                 {"kind", kind_name(result.kind)},
                 {"holds", result.kind == engine::BoundaryResult::Kind::breaks_everywhere
                               ? json()
                               : json(presets::axis_value_text(axis, result.holds))},
                 {"breaks", result.kind == engine::BoundaryResult::Kind::holds_everywhere
                                ? json()
                                : json(presets::axis_value_text(axis, result.breaks))},
                 {"description", description},
                 {"probes", probe_list},
                 {"runs", probes * options.runs}});
            summary += (summary.empty() ? "" : "; ") + summary_phrase(axis, result);
            if (!options.json_output) {
                char line[512];
                std::snprintf(line, sizeof(line), "  %-20s %s   (%d probe%s, %d runs)\n",
                              axis.key.c_str(), description.c_str(), probes, probes == 1 ? "" : "s",
                              probes * options.runs);
                logging::print_above_status(line);
            }
        }
        return 0;
    });
    progress.stop();
    reports::save_preset_boundaries(boundaries_path, boundaries);
    summary = workflow.name + " " + summary;
    if (options.json_output) {
        std::cout << json{{"workflow", workflow.name},
                          {"session", session},
                          {"seed", options.seed},
                          {"strategy", options.strategy},
                          {"runs_per_probe", options.runs},
                          {"axes", report_axes},
                          {"summary", summary},
                          {"boundaries", boundaries_path.string()}}
                         .dump(2)
                  << '\n';
    } else {
        std::printf("%s\nboundaries kept in %s; recorded as session %lld\n", summary.c_str(),
                    boundaries_path.c_str(), static_cast<long long>(session));
    }
    std::fflush(stdout);
    return finish_with_disabled_plugins(disabled_plugins(store, session),
                                        settings.plugin_host.strict, kExitOk);
}

}  // namespace sbx::cli
