// `run --all-workflows` and `run --sections`: every part on its own under each of its
// presets, then all parts together; synergy recorded in metrics.db and roi_history.json,
// each part's ROI change fed to the tracker, converged parts skipped.
#include <glob.h>
#include <sys/stat.h>

#include <spdlog/spdlog.h>
#include <algorithm>
#include <iostream>
#include <set>

#include "engine/forecaster.hpp"
#include "engine/simulation.hpp"
#include "matrix_command.hpp"
#include "presets/canonical.hpp"
#include "presets/keyword_profiles.hpp"
#include "presets/selection.hpp"
#include "progress_line.hpp"
#include "report.hpp"
#include "reports/roi_history.hpp"
#include "reports/scenario_recording.hpp"
#include "run_options.hpp"
#include "scoring/forecast_scores.hpp"
#include "scoring/tracker.hpp"
#include "session.hpp"
#include "store/forecast_records.hpp"
#include "store/matrix_records.hpp"
#include "util/errors.hpp"

namespace sbx::cli {
namespace {

using nlohmann::json;

// Records what a simulation found and returns the JSON report.
json record_simulation(store::Store &store, int64_t session, const std::filesystem::path &data_dir,
                       const engine::Simulation &simulation,
                       const std::vector<engine::PresetOutcome> &outcomes,
                       const scoring::TrackerSettings &settings, engine::Forecaster &forecaster) {
    auto history = reports::load_roi_history(data_dir / "roi_history.json");
    auto tracker = reports::tracker_from_history(history, settings,
                                                 data_dir / (simulation.subject + ".flags"));
    json report = json::array();
    for (const auto &outcome : outcomes) {
        json parts = json::array();
        for (const auto &part : outcome.parts) {
            // Metric names carry the preset, so one module's per-preset trends stay apart.
            std::map<std::string, double> prefixed;
            for (const auto &[name, value] : part.metrics) {
                prefixed[outcome.preset + "_" + name] = value;
            }
            const auto previous = store.roi_history(part.workflow, outcome.preset, "on");
            const double before = previous.size() >= 2 ? previous[previous.size() - 2] : 0.0;
            tracker.update(before, part.roi, {part.workflow}, prefixed);
            tracker.record_raroi(part.workflow, part.roi);
            // Every on-cell adds to its preset's series, as in metrics.db, so rankings
            // read from either agree.
            reports::append_series(history, outcome.preset, part.roi, part.roi - before, part.roi,
                                   part.metrics);
            parts.push_back({{"name", part.workflow},
                             {"roi", part.roi},
                             {"runs", part.runs},
                             {"metrics", part.metrics}});
        }
        json entry{{"preset", outcome.preset}, {"parts", parts}};
        if (outcome.has_combined) {
            std::map<std::string, double> synergy = outcome.synergy.synergy_metrics;
            synergy["synergy_roi"] = outcome.synergy.synergy_roi;
            store::record_synergy(store, session, simulation.subject, outcome.preset, synergy);
            for (auto &[name, points] :
                 store::synergy_series(store, simulation.subject, outcome.preset)) {
                if (synergy.count(name) == 0) {
                    continue;  // not extended by this simulation
                }
                forecaster.forecast({name + ":" + simulation.subject + ":" + outcome.preset, name,
                                     std::move(points), std::nullopt});
            }
            auto metrics = outcome.combined.metrics;
            metrics.insert(synergy.begin(), synergy.end());
            reports::append_series(history, outcome.preset, outcome.combined.roi,
                                   outcome.synergy.synergy_roi, outcome.combined.roi, metrics);
            entry["combined"] = {{"name", simulation.combined_name},
                                 {"roi", outcome.combined.roi},
                                 {"metrics", outcome.combined.metrics}};
            entry["synergy"] = synergy;
        }
        report.push_back(entry);
    }
    history.tracker = tracker.to_json();
    reports::save_roi_history(data_dir / "roi_history.json", history);
    tracker.save_flags(data_dir / (simulation.subject + ".flags"));
    // The tracker's view across every recorded cycle, not just this one.
    return {{"presets", report}, {"rankings", rankings_json(tracker)}};
}

void print_simulation(const engine::Simulation &simulation, const json &result, bool details) {
    const json &report = result["presets"];
    std::printf("%s simulation: %zu parts, %zu presets\n", simulation.subject.c_str(),
                simulation.parts.size(), simulation.presets.size());
    for (const auto &entry : report) {
        std::printf("\npreset %s\n", entry["preset"].get<std::string>().c_str());
        for (const auto &part : entry["parts"]) {
            std::printf("  %-32s roi %.3f\n", part["name"].get<std::string>().c_str(),
                        part["roi"].get<double>());
            if (details) {
                for (const auto &[name, value] : part["metrics"].items()) {
                    std::printf("    %-30s %g\n", name.c_str(), value.get<double>());
                }
            }
        }
        if (entry.contains("combined")) {
            std::printf("  %-32s roi %.3f   synergy_roi %+.3f\n",
                        entry["combined"]["name"].get<std::string>().c_str(),
                        entry["combined"]["roi"].get<double>(),
                        entry["synergy"]["synergy_roi"].get<double>());
            if (details) {
                for (const auto &[name, value] : entry["synergy"].items()) {
                    std::printf("    %-30s %+g\n", name.c_str(), value.get<double>());
                }
            }
        }
    }
    print_rankings("all recorded cycles, by total RAROI", result["rankings"]);
}

int run_simulation_command(CliContext &context, RunOptions &options,
                           engine::Simulation simulation) {
    auto &settings = context.settings;
    const std::filesystem::path data_dir = settings.data_dir;
    // Converged parts have stopped paying off: they are skipped (delete the flags file to
    // bring them back).
    const auto tracker_settings = scoring::tracker_settings_from_environment();
    scoring::Tracker flags(tracker_settings);
    flags.load_flags(data_dir / (simulation.subject + ".flags"));
    std::vector<engine::SimulationPart> kept;
    for (auto &part : simulation.parts) {
        if (flags.converged(part.workflow.name)) {
            spdlog::info("skipping {}: converged (listed in {})", part.workflow.name,
                         (data_dir / (simulation.subject + ".flags")).string());
        } else {
            kept.push_back(std::move(part));
        }
    }
    simulation.parts = std::move(kept);
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
    const int64_t session =
        options.resumed_session != 0
            ? options.resumed_session
            : store.begin_session(
                  simulation.subject == "workflows" ? "run --all-workflows" : "run --sections",
                  settings.source, options.seed, recorded_run_options(options));
    record_plugins_used(store, session, plugins);
    ProgressLine progress(context.options);
    const engine::MatrixContext matrix =
        matrix_context(context, store, session, options.resumed_session != 0, progress.observer());
    const json result = within_session(store, session, [&] {
        engine::MatrixRunner runner(matrix, plugins, run_workers(options, settings));
        const auto outcomes =
            engine::run_simulation(simulation, runner, options.runs, options.seed);
        engine::Forecaster forecaster(plugins, store, session);
        return record_simulation(store, session, data_dir, simulation, outcomes,
                                 scoring::with_adapted_tolerance(tracker_settings, store),
                                 forecaster);
    });
    progress.stop();
    if (options.json) {
        std::cout << json{{"subject", simulation.subject},
                          {"session", session},
                          {"seed", options.seed},
                          {"presets", result["presets"]},
                          {"rankings", result["rankings"]}}
                         .dump(2)
                  << '\n';
    } else {
        print_simulation(simulation, result, options.details);
        std::printf("\nrecorded as session %lld in %s\n", static_cast<long long>(session),
                    (data_dir / "metrics.db").c_str());
    }
    std::fflush(stdout);
    int code = kExitOk;
    if (options.fail_under >= 0) {
        for (const auto &entry : result["presets"]) {
            for (const auto &part : entry["parts"]) {
                if (code == kExitOk && part["roi"].get<double>() < options.fail_under) {
                    std::fprintf(stderr,
                                 "sandbox-runner: ROI %.3f of %s under preset '%s' is below "
                                 "--fail-under %.3f\n",
                                 part["roi"].get<double>(), part["name"].get<std::string>().c_str(),
                                 entry["preset"].get<std::string>().c_str(), options.fail_under);
                    code = kExitGateFailed;
                }
            }
        }
    }
    return finish_with_disabled_plugins(disabled_plugins(store, session),
                                        settings.plugin_host.strict, code);
}

// The executables matched by the settings' target globs, relative to the repository.
std::vector<std::filesystem::path> expand_targets(const config::Settings &settings,
                                                  const std::filesystem::path &repo) {
    std::vector<std::filesystem::path> found;
    for (const auto &pattern : settings.targets) {
        const std::string full =
            pattern.empty() || pattern.front() == '/' ? pattern : (repo / pattern).string();
        glob_t matches{};
        const int status = ::glob(full.c_str(), 0, nullptr, &matches);
        size_t executables = 0;
        for (size_t i = 0; status == 0 && i < matches.gl_pathc; ++i) {
            struct stat info {};
            const char *path = matches.gl_pathv[i];
            if (::stat(path, &info) == 0 && S_ISREG(info.st_mode) && (info.st_mode & 0111)) {
                found.emplace_back(path);
                ++executables;
            }
        }
        ::globfree(&matches);
        if (executables == 0) {
            throw InputError(settings.source + ": targets: '" + pattern +
                             "' matches no executable file under " + repo.string() +
                             "; fix the glob or set SANDBOX_REPO_PATH to the repository");
        }
    }
    return found;
}

}  // namespace

int run_workflow_simulations(CliContext &context, RunOptions &options) {
    auto &settings = context.settings;
    if (settings.workflows.empty()) {
        throw InputError("run --all-workflows: " + settings.source + " defines no workflows");
    }
    engine::Simulation simulation{"workflows", "all_workflows", {}, {}};
    simulation.presets = presets::choose_presets({options.preset_files, options.preset_count,
                                                  static_cast<uint64_t>(options.seed), &settings,
                                                  settings.preset_env});
    std::vector<std::string> names;
    for (const auto &preset : simulation.presets) {
        names.push_back(preset.name);
    }
    for (const auto &workflow : settings.workflows) {
        simulation.parts.push_back({workflow, names});
    }
    return run_simulation_command(context, options, std::move(simulation));
}

int run_section_simulations(CliContext &context, RunOptions &options) {
    auto &settings = context.settings;
    if (settings.targets.empty()) {
        throw InputError("run --sections: " + settings.source +
                         " lists no targets; add e.g. targets: [\"bin/*\"]");
    }
    const std::filesystem::path repo = settings.repo_path.empty()
                                           ? std::filesystem::current_path()
                                           : std::filesystem::path(settings.repo_path);
    const auto targets = expand_targets(settings, repo);

    // A custom preset list (files, SANDBOX_ENV_PRESETS, settings) is the base; the low
    // canonical preset of every profile it leaves out is added.
    const bool custom =
        !options.preset_files.empty() || !settings.presets.empty() || !settings.env_presets.empty();
    std::vector<presets::Preset> base;
    if (custom) {
        base = presets::choose_presets({options.preset_files, options.preset_count,
                                        static_cast<uint64_t>(options.seed), &settings,
                                        settings.preset_env});
    }
    // Every section meets every canonical profile (the guarantee); the profiles its path's
    // keywords name it meets at high severity too.
    std::vector<std::vector<std::string>> emphasized;
    std::set<std::string> high_profiles;
    for (const auto &target : targets) {
        emphasized.push_back(presets::keyword_matches_for_path(
            target.lexically_relative(repo).string(), settings.keyword_profiles));
        high_profiles.insert(emphasized.back().begin(), emphasized.back().end());
    }
    std::vector<json> bodies;
    bodies.reserve(base.size());
    for (const auto &preset : base) {
        bodies.push_back(preset.body);
    }
    const size_t custom_count = bodies.size();
    bodies = presets::add_missing_canonical(std::move(bodies), presets::canonical_profile_names(),
                                            settings.fail_on_missing_scenarios);
    const size_t high_start = bodies.size();
    std::vector<std::string> high_order;  // the profile of each high preset, canonical order
    for (const auto &profile : presets::canonical_profile_names()) {
        if (high_profiles.count(profile) != 0) {
            bodies.push_back(presets::canonical_preset(profile, presets::Severity::high));
            high_order.push_back(profile);
        }
    }
    engine::Simulation simulation{"sections", "all_sections", {}, {}};
    for (size_t i = 0; i < bodies.size(); ++i) {
        if (i < custom_count) {
            simulation.presets.push_back(base[i]);
        } else if (i < high_start) {
            simulation.presets.push_back(presets::make_preset(bodies[i], "canonical preset", i));
        } else {
            auto high = presets::make_preset(bodies[i], "canonical preset (high)", i);
            high.name += "#high";  // its own series beside the low one of the same scenario
            simulation.presets.push_back(std::move(high));
        }
    }
    presets::make_names_unique(simulation.presets);
    for (size_t t = 0; t < targets.size(); ++t) {
        // Every low or custom preset; a high one where the section's keywords name it.
        std::vector<std::string> names;
        for (size_t i = 0; i < simulation.presets.size(); ++i) {
            if (i < high_start || std::find(emphasized[t].begin(), emphasized[t].end(),
                                            high_order[i - high_start]) != emphasized[t].end()) {
                names.push_back(simulation.presets[i].name);
            }
        }
        simulation.parts.push_back({engine::section_workflow(targets[t], repo), names});
    }
    return run_simulation_command(context, options, std::move(simulation));
}

}  // namespace sbx::cli
