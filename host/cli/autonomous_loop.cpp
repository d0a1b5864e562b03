#include "autonomous_loop.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>

#include "autonomous_decisions.hpp"
#include "autonomous_presets.hpp"
#include "autonomous_report.hpp"
#include "autonomous_state.hpp"
#include "engine/forecaster.hpp"
#include "engine/simulation.hpp"
#include "matrix_command.hpp"
#include "plugins/plugin.hpp"
#include "presets/preset.hpp"
#include "presets/q_policy.hpp"
#include "presets/selection.hpp"
#include "progress_line.hpp"
#include "reports/foresight_trends.hpp"
#include "reports/preset_boundaries.hpp"
#include "scoring/convergence.hpp"
#include "scoring/convergence_settings.hpp"
#include "scoring/statistics.hpp"
#include "scoring/tracker.hpp"
#include "session.hpp"
#include "store/matrix_records.hpp"
#include "store/session_resume.hpp"
#include "util/errors.hpp"

namespace sbx::cli {

using nlohmann::json;

json AutonomousOptions::to_json() const {
    const auto optional_number = [](const auto &value) { return value ? json(*value) : json(); };
    std::vector<std::string> files;
    for (const auto &file : preset_files) {
        files.push_back(std::filesystem::absolute(file).lexically_normal().string());
    }
    return {{"workflows", workflows},
            {"max_iterations", max_iterations},
            {"max_minutes", max_minutes},
            {"preset_count", preset_count},
            {"preset_count_given", preset_count_given},
            {"preset_strategy", preset_strategy},
            {"preset_files", files},
            {"runs", runs},
            {"workers", workers},
            {"roi_cycles", optional_number(roi_cycles)},
            {"synergy_cycles", optional_number(synergy_cycles)},
            {"roi_threshold", optional_number(roi_threshold)},
            {"synergy_threshold", optional_number(synergy_threshold)},
            {"entropy_threshold", optional_number(entropy_threshold)},
            {"synergy_threshold_window", optional_number(synergy_threshold_window)},
            {"synergy_threshold_weight", optional_number(synergy_threshold_weight)},
            {"entropy_plateau_consecutive", optional_number(entropy_plateau_consecutive)},
            {"forecast_log",
             forecast_log.empty() ? "" : std::filesystem::absolute(forecast_log).string()}};
}

AutonomousOptions AutonomousOptions::from_json(const json &options) {
    AutonomousOptions parsed;
    parsed.workflows = options.at("workflows").get<std::vector<std::string>>();
    parsed.max_iterations = options.at("max_iterations").get<int>();
    parsed.max_minutes = options.at("max_minutes").get<double>();
    parsed.preset_count = options.at("preset_count").get<int>();
    // Loops saved before presets were adapted ran them fixed.
    parsed.preset_count_given = options.value("preset_count_given", false);
    parsed.preset_strategy = options.value("preset_strategy", "fixed");
    parsed.preset_files = options.at("preset_files").get<std::vector<std::string>>();
    parsed.runs = options.at("runs").get<int>();
    parsed.workers = options.at("workers").get<unsigned>();
    const auto read = [&](const char *key, auto &into) {
        const auto &value = options.at(key);
        if (!value.is_null()) {
            into = value.get<typename std::decay_t<decltype(into)>::value_type>();
        }
    };
    read("roi_cycles", parsed.roi_cycles);
    read("synergy_cycles", parsed.synergy_cycles);
    read("roi_threshold", parsed.roi_threshold);
    read("synergy_threshold", parsed.synergy_threshold);
    read("entropy_threshold", parsed.entropy_threshold);
    // Loops saved before these options existed have no such keys.
    const auto read_new = [&](const char *key, auto &into) {
        if (options.contains(key)) {
            read(key, into);
        }
    };
    read_new("synergy_threshold_window", parsed.synergy_threshold_window);
    read_new("synergy_threshold_weight", parsed.synergy_threshold_weight);
    read_new("entropy_plateau_consecutive", parsed.entropy_plateau_consecutive);
    parsed.forecast_log = options.at("forecast_log").get<std::string>();
    return parsed;
}

namespace {

// The workflows the loop works on, in settings order. InputError for a name that is none.
std::vector<const config::Workflow *> scoped_workflows(const config::Settings &settings,
                                                       const std::string &command,
                                                       const std::vector<std::string> &names) {
    if (settings.workflows.empty()) {
        throw InputError(command + ": " + settings.source + " defines no workflows");
    }
    std::vector<const config::Workflow *> scoped;
    for (const auto &workflow : settings.workflows) {
        if (names.empty() || std::find(names.begin(), names.end(), workflow.name) != names.end()) {
            scoped.push_back(&workflow);
        }
    }
    for (const auto &name : names) {
        if (std::none_of(scoped.begin(), scoped.end(), [&](const config::Workflow *workflow) {
                return workflow->name == name;
            })) {
            std::string problem = command;
            problem += ": --workflow " + name;
            problem += " names no workflow of " + settings.source;
            throw InputError(problem);
        }
    }
    return scoped;
}

void append_lines(const std::filesystem::path &path, const std::vector<json> &lines) {
    if (path.empty() || lines.empty()) {
        return;
    }
    if (path.has_parent_path()) {
        std::filesystem::create_directories(path.parent_path());
    }
    std::ofstream out(path, std::ios::app);
    for (const auto &line : lines) {
        out << line.dump() << '\n';
    }
    if (!out) {
        throw EnvironmentError("cannot append to " + path.string());
    }
}

// What one iteration's simulation says about each module, and the mean synergy.
IterationRecord summarize_iteration(int iteration, int64_t session, int64_t seed,
                                    const std::vector<presets::Preset> &presets,
                                    const std::vector<engine::PresetOutcome> &outcomes) {
    IterationRecord record;
    record.iteration = iteration;
    record.session = session;
    record.seed = seed;
    for (const auto &preset : presets) {
        record.presets.push_back(preset.name);
    }
    std::map<std::string, std::vector<double>> rois;
    // The module's outcomes over all its cells of the iteration: with one run per cell, a
    // cell's own entropy is always 0.
    std::map<std::string, std::map<std::string, int>> failures;
    std::vector<double> synergies;
    for (const auto &outcome : outcomes) {
        auto &result = record.preset_results[outcome.preset];
        std::vector<double> part_rois;
        std::vector<double> security;
        for (const auto &part : outcome.parts) {
            part_rois.push_back(part.roi);
            if (const auto score = part.metrics.find("security_score");
                score != part.metrics.end()) {
                security.push_back(score->second);
            }
        }
        result.roi = scoring::mean(part_rois);
        if (!security.empty()) {
            result.security_score = scoring::mean(security);
        }
        if (outcome.has_combined) {
            result.synergy_roi = outcome.synergy.synergy_roi;
        }
        for (const auto &part : outcome.parts) {
            record.modules[part.workflow].preset_roi[outcome.preset] = part.roi;
            rois[part.workflow].push_back(part.roi);
            for (const auto &[reason, count] : part.failures) {
                failures[part.workflow][reason] += count;
            }
            auto &module = record.modules[part.workflow];
            module.runs += part.runs;
            module.passed += part.passed;
        }
        if (outcome.has_combined) {
            synergies.push_back(outcome.synergy.synergy_roi);
        }
    }
    for (auto &[name, module] : record.modules) {
        module.roi = scoring::mean(rois[name]);
        module.entropy = scoring::outcome_entropy(module.passed, failures[name]);
    }
    if (!synergies.empty()) {
        record.synergy_roi = scoring::mean(synergies);
    }
    record.finished_at = store::utc_now();
    return record;
}

// The loop-level series (each module's ROI and entropy, the synergy) forecast one
// iteration ahead; the ROI forecasts go into the record, every forecast into metrics.db.
// Their subjects carry the loop (the session of its first iteration), so one loop's
// forecasts never meet another's points.
void forecast_loop_series(engine::Forecaster &forecaster, const AutonomousState &state,
                          IterationRecord &record) {
    const std::string loop =
        ":loop" + std::to_string(state.iterations.empty() ? record.session
                                                          : state.iterations.front().session);
    const auto subject = [&](const char *metric, const std::string &module) {
        std::string text = metric;
        text += module;
        text += loop;
        return text;
    };
    const auto points = [&](std::vector<double> values, std::vector<std::string> times,
                            double now) {
        values.push_back(now);
        times.push_back(record.finished_at);
        std::vector<store::SeriesPoint> series;
        series.reserve(values.size());
        for (size_t i = 0; i < values.size(); ++i) {
            series.push_back({values[i], times[i]});
        }
        return series;
    };
    for (auto &[name, module] : record.modules) {
        module.forecast =
            forecaster.forecast({subject("roi:", name), "roi",
                                 points(module_series(state, name, &ModuleIteration::roi),
                                        series_times(state, name), module.roi),
                                 std::pair(0.0, 1.0)});
        forecaster.forecast({subject("outcome_entropy:", name), "outcome_entropy",
                             points(module_series(state, name, &ModuleIteration::entropy),
                                    series_times(state, name), module.entropy),
                             std::nullopt});
    }
    if (record.synergy_roi) {
        record.synergy_forecast = forecaster.forecast(
            {"synergy_roi" + loop, "synergy_roi",
             points(synergy_series(state), series_times(state, ""), *record.synergy_roi),
             std::nullopt});
    }
}

// --forecast-log: per module, the forecast the previous iteration made of this one, what
// came, and the forecast of the next.
std::vector<json> forecast_log_lines(const AutonomousState &state, const IterationRecord &record) {
    std::vector<json> lines;
    for (const auto &[name, module] : record.modules) {
        json predicted;
        for (auto previous = state.iterations.rbegin(); previous != state.iterations.rend();
             ++previous) {
            const auto found = previous->modules.find(name);
            if (found != previous->modules.end()) {
                predicted = found->second.forecast.value("value", json());
                break;
            }
        }
        lines.push_back({{"iteration", record.iteration},
                         {"module", name},
                         {"metric", "roi"},
                         {"predicted", predicted},
                         {"actual", module.roi},
                         {"next", module.forecast}});
    }
    return lines;
}

void print_progress(const IterationRecord &record, int max_iterations,
                    const LoopDecisions &decisions, double seconds) {
    std::printf("iteration %d/%d: %zu preset%s, %zu module%s, %.1f s\n", record.iteration,
                max_iterations, record.presets.size(), record.presets.size() == 1 ? "" : "s",
                record.modules.size(), record.modules.size() == 1 ? "" : "s", seconds);
    if (const auto adapted = adaptation_summary(record.adaptation); !adapted.empty()) {
        std::printf("  %s\n", adapted.c_str());
    }
    for (const auto &[name, module] : record.modules) {
        const auto &forecast = module.forecast;
        const auto value = forecast.is_object() ? forecast.value("value", json()) : json();
        std::printf(
            "  %-28s roi %.3f  entropy %.3f  next %s\n", name.c_str(), module.roi, module.entropy,
            value.is_number() ? std::to_string(value.get<double>()).substr(0, 5).c_str() : "-");
    }
    if (record.synergy_roi) {
        std::printf("  %-28s %+.3f\n", "synergy_roi", *record.synergy_roi);
    }
    std::printf("  converged: %s\n", decisions.converged_modules.empty()
                                         ? "none yet"
                                         : [&] {
                                               std::string names;
                                               for (const auto &name : decisions.converged_modules) {
                                                   names += (names.empty() ? "" : ", ") + name;
                                               }
                                               return names;
                                           }()
                                               .c_str());
    std::fflush(stdout);
}

// The session of the iteration in flight when the loop stopped, running again: whatever it
// was left as. One that finished before the loop recorded the iteration holds every cell,
// which the runner then restores without running anything.
int64_t reopen_iteration_session(store::Store &store, int64_t session, const std::string &command,
                                 const std::filesystem::path &database) {
    const auto status = store::session_status(store, session);
    if (!status || status->second != command) {
        throw InputError(command + " --recover: " + database.string() + " holds no session " +
                         std::to_string(session) + " of " + command +
                         ", the one the loop was running; move autonomous_run.json away to "
                         "start a new loop");
    }
    store::take_over_session(store, session, command, database.string());
    return session;
}

// The thresholds of a new loop: its options over the environment's.
LoopThresholds starting_thresholds(const AutonomousOptions &options) {
    LoopThresholds thresholds;
    thresholds.tracker = scoring::tracker_settings_from_environment();
    thresholds.convergence = scoring::convergence_settings_from_environment();
    const auto from_environment = [](const char *name) {
        const char *value = std::getenv(name);
        return value != nullptr && *value != '\0';
    };
    if (options.roi_threshold) {
        thresholds.tracker.tolerance = *options.roi_threshold;
        thresholds.sources.roi = "option";
    }
    if (options.roi_cycles) {
        thresholds.tracker.roi_cycles = *options.roi_cycles;
    }
    if (options.entropy_threshold) {
        thresholds.tracker.entropy_threshold = *options.entropy_threshold;
    }
    if (options.synergy_cycles) {
        thresholds.convergence.synergy_cycles = *options.synergy_cycles;
    }
    if (from_environment("SYNERGY_THRESHOLD")) {
        thresholds.sources.synergy = "environment";
    }
    if (options.synergy_threshold) {
        thresholds.convergence.synergy_threshold = *options.synergy_threshold;
        thresholds.sources.synergy = "option";
    }
    if (options.synergy_threshold_window) {
        thresholds.convergence.synergy_threshold_window =
            static_cast<size_t>(*options.synergy_threshold_window);
    }
    if (options.synergy_threshold_weight) {
        thresholds.convergence.synergy_threshold_weight = *options.synergy_threshold_weight;
    }
    if (options.entropy_plateau_consecutive) {
        thresholds.convergence.entropy_plateau_consecutive = *options.entropy_plateau_consecutive;
    }
    if (from_environment("ENTROPY_PLATEAU_THRESHOLD")) {
        thresholds.sources.entropy = "environment";
    }
    return thresholds;
}

}  // namespace

int run_autonomous_loop(CliContext &context, const std::string &command,
                        AutonomousOptions options) {
    auto &settings = context.settings;
    const std::filesystem::path data_dir = settings.data_dir;
    const auto state_path = autonomous_state_path(data_dir);
    const auto database = data_dir / "metrics.db";
    AutonomousState state;
    if (options.recover) {
        auto loaded = load_autonomous_state(state_path);
        if (!loaded || !loaded->stopped.empty() || loaded->command != command) {
            throw InputError(command + " --recover: " + state_path.string() +
                             " holds no unfinished " + command + "; run it without --recover");
        }
        state = std::move(*loaded);
        const bool json_output = options.json_output;
        try {
            options = AutonomousOptions::from_json(state.options);
        } catch (const nlohmann::json::exception &e) {
            throw InputError(state_path.string() + ": damaged loop options (" + e.what() +
                             "); move it away to start a new loop");
        }
        options.json_output = json_output;
        options.recover = true;
    } else {
        if (const auto existing = load_autonomous_state(state_path);
            existing && existing->stopped.empty()) {
            throw InputError(command + ": " + state_path.string() + " holds an unfinished " +
                             existing->command + "; go on with `" + existing->command +
                             " --recover`, or move the file away to start a new loop");
        }
        state.command = command;
        state.seed = options.seed >= 0 ? options.seed : random_seed();
        if (options.preset_strategy.empty()) {
            options.preset_strategy = settings.preset_strategy;
        }
        state.options = options.to_json();
    }

    // Thresholds: the command line, else the environment, else derived from history; fixed
    // when the loop starts.
    LoopThresholds thresholds;
    if (options.recover) {
        try {
            thresholds = LoopThresholds::from_json(state.options.at("thresholds"));
        } catch (const nlohmann::json::exception &e) {
            throw InputError(state_path.string() + ": damaged loop thresholds (" + e.what() +
                             "); move it away to start a new loop");
        }
    } else {
        thresholds = starting_thresholds(options);
        state.options["thresholds"] = thresholds.to_json();
    }
    const auto &tracker_settings = thresholds.tracker;
    const auto &convergence = thresholds.convergence;
    const auto &sources = thresholds.sources;
    // Read now: a foresight history that cannot be read stops the loop before it starts.
    (void)reports::load_foresight_cycles(data_dir / "foresight_history.json");

    const auto scoped = scoped_workflows(settings, command, options.workflows);
    std::vector<std::string> module_names;
    module_names.reserve(scoped.size());
    for (const auto *workflow : scoped) {
        module_names.push_back(workflow->name);
    }
    const auto boundaries_path = reports::preset_boundaries_path(data_dir);
    const auto policy_path = presets::q_policy_path(settings.preset_policy_path, data_dir);
    presets::QPolicy policy;
    if (options.preset_strategy == "q_learning") {
        auto loaded = presets::load_q_policy(policy_path);
        if (!loaded.legacy_boundaries.is_null()) {
            // find-boundaries' brackets, kept in the policy's file before it learned.
            reports::save_preset_boundaries(
                boundaries_path, reports::load_preset_boundaries(boundaries_path, policy_path));
        }
        policy = std::move(loaded.policy);
    }
    // Every plugin, executor and preset is checked before the first iteration records.
    engine::PluginSet plugins(settings, context.registry());
    store::Store store(database);
    std::vector<int64_t> sessions_run;  // this command's iterations
    const auto threshold_log = data_dir / "threshold_log.jsonl";
    const auto started = std::chrono::steady_clock::now();
    const auto elapsed = [&] {
        return state.elapsed_s +
               std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    };
    const auto save = [&] {
        AutonomousState copy = state;
        copy.elapsed_s = elapsed();
        save_autonomous_state(state_path, copy);
    };
    save();

    auto decisions = decide(state, module_names, tracker_settings, convergence, sources);
    while (state.stopped.empty()) {
        const int iteration = static_cast<int>(state.iterations.size()) + 1;
        if (!decisions.stop_reason.empty()) {
            state.stopped = decisions.stop_reason;
            break;
        }
        if (iteration > options.max_iterations) {
            state.stopped =
                "--max-iterations " + std::to_string(options.max_iterations) + " reached";
            break;
        }
        if (options.max_minutes > 0 && elapsed() >= options.max_minutes * 60) {
            state.stopped = "--max-minutes " + std::to_string(options.max_minutes) + " reached";
            break;
        }
        if (plugins::cancel_requested()) {
            save();
            throw engine::Cancelled("interrupted before iteration " + std::to_string(iteration) +
                                    "; every finished iteration is kept (" + command +
                                    " --recover goes on)");
        }
        // Converged modules are skipped, as the simulations skip them.
        engine::Simulation simulation{"autonomous", "all_workflows", {}, {}};
        const int64_t seed = state.seed + iteration - 1;
        // The iteration's presets: kept in the state from the moment they are chosen, so a
        // --recover runs the same ones.
        IterationPresets chosen;
        if (state.next_presets.is_object() &&
            state.next_presets.value("iteration", 0) == iteration) {
            chosen = kept_presets(state.next_presets, state_path.string());
        } else {
            chosen = iteration_presets(state, options, settings, seed, policy);
            if (options.preset_strategy == "q_learning" && !chosen.adaptation.empty()) {
                presets::save_q_policy(policy_path, policy);
            }
            state.next_presets = keep_presets(iteration, chosen);
            save();
        }
        simulation.presets = chosen.presets;
        // Both sides of every failure boundary find-boundaries kept, each iteration as found.
        for (const auto &body : reports::boundary_preset_bodies(
                 reports::load_preset_boundaries(boundaries_path, policy_path), module_names)) {
            simulation.presets.push_back(
                presets::make_preset(body, boundaries_path.string(), simulation.presets.size()));
        }
        presets::make_names_unique(simulation.presets);
        std::vector<std::string> preset_names;
        for (const auto &preset : simulation.presets) {
            preset_names.push_back(preset.name);
        }
        std::vector<const config::Workflow *> running;
        for (const auto *workflow : scoped) {
            if (std::find(decisions.converged_modules.begin(), decisions.converged_modules.end(),
                          workflow->name) == decisions.converged_modules.end()) {
                simulation.parts.push_back({*workflow, preset_names});
                running.push_back(workflow);
            }
        }
        if (running.empty()) {
            // Only the synergy is left, and it cannot move without its parts.
            state.stopped = "every module has converged by ROI; the synergy, which had not (" +
                            decisions.synergy_reason + "), cannot change without them";
            break;
        }
        resolve_plugins_for(plugins, running, simulation.presets);

        // The session: the one in flight when a killed loop resumes, else a new one.
        int64_t session = 0;
        bool resumed = false;
        if (state.in_progress && state.in_progress->first == iteration) {
            session = reopen_iteration_session(store, state.in_progress->second, command, database);
            resumed = true;
        } else {
            session = store.begin_session(command, settings.source, seed,
                                          {{"iteration", iteration}, {"loop", state.options}});
            state.in_progress = {iteration, session};
            save();
        }
        record_plugins_used(store, session, plugins);
        sessions_run.push_back(session);
        const auto iteration_started = std::chrono::steady_clock::now();
        ProgressLine progress(context.options);
        const engine::MatrixContext matrix =
            matrix_context(context, store, session, resumed, progress.observer());
        const unsigned workers =
            options.workers != 0 ? options.workers : std::max(1u, settings.workers);
        auto record = within_session(store, session, [&] {
            engine::MatrixRunner runner(matrix, plugins, workers);
            const auto outcomes = engine::run_simulation(simulation, runner, options.runs, seed);
            for (const auto &outcome : outcomes) {
                if (outcome.has_combined) {
                    std::map<std::string, double> synergy = outcome.synergy.synergy_metrics;
                    synergy["synergy_roi"] = outcome.synergy.synergy_roi;
                    store::record_synergy(store, session, "autonomous", outcome.preset, synergy);
                }
            }
            IterationRecord summary =
                summarize_iteration(iteration, session, seed, simulation.presets, outcomes);
            for (const auto &preset : chosen.presets) {
                summary.preset_bodies.push_back(preset.body);
            }
            summary.adaptation = chosen.adaptation;
            engine::Forecaster forecaster(plugins, store, session);
            forecast_loop_series(forecaster, state, summary);
            return summary;
        });
        progress.stop();
        append_lines(options.forecast_log, forecast_log_lines(state, record));
        state.iterations.push_back(record);
        state.in_progress.reset();
        state.next_presets = json();
        decisions = decide(state, module_names, tracker_settings, convergence, sources);
        append_lines(threshold_log, decisions.log);
        save();
        if (!options.json_output) {
            print_progress(
                record, options.max_iterations, decisions,
                std::chrono::duration<double>(std::chrono::steady_clock::now() - iteration_started)
                    .count());
        }
    }
    save();

    const json report =
        autonomous_report(state, decisions, tracker_settings, data_dir / "foresight_history.json");
    if (options.json_output) {
        std::cout << report.dump(2) << '\n';
    } else {
        print_autonomous_report(report);
        std::printf("\nrecorded in %s; decisions in %s; loop state in %s\n", database.c_str(),
                    threshold_log.c_str(), state_path.c_str());
    }
    // A collector or predictor is disabled for the whole loop (one registry): each plugin's
    // first failure, in whichever iteration's session it was recorded.
    std::vector<store::PluginFailure> disabled;
    for (const int64_t ran : sessions_run) {
        for (auto &entry : disabled_plugins(store, ran)) {
            disabled.push_back(std::move(entry));
        }
    }
    std::fflush(stdout);
    return finish_with_disabled_plugins(disabled, settings.plugin_host.strict, kExitOk);
}

}  // namespace sbx::cli
