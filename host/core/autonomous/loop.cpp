// The loop itself: each iteration chosen, run, summarized, forecast and decided on, with
// its state saved at every step (loop_state.hpp says why).
#include "autonomous/loop.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>

#include "autonomous/iteration_presets.hpp"
#include "autonomous/loop_decisions.hpp"
#include "autonomous/loop_report.hpp"
#include "autonomous/loop_state.hpp"
#include "engine/command_seed.hpp"
#include "engine/forecaster.hpp"
#include "engine/plugin_resolution.hpp"
#include "engine/session_bookkeeping.hpp"
#include "engine/simulation.hpp"
#include "plugins/plugin.hpp"
#include "presets/preset.hpp"
#include "presets/q_policy.hpp"
#include "presets/selection.hpp"
#include "reports/foresight_trends.hpp"
#include "reports/preset_boundaries.hpp"
#include "scoring/convergence.hpp"
#include "scoring/convergence_settings.hpp"
#include "scoring/statistics.hpp"
#include "scoring/tracker.hpp"
#include "store/matrix_records.hpp"
#include "store/session_resume.hpp"
#include "util/errors.hpp"

namespace sbx::autonomous {

using nlohmann::json;

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

// The session of the iteration in flight when the loop stopped, running again: whatever it
// was left as. One that finished before the loop recorded the iteration holds every cell,
// which the runner then restores without running anything.
int64_t reopen_iteration_session(store::Store &store, int64_t session, const std::string &command,
                                 const std::filesystem::path &database) {
    const auto status = store::session_status(store, session);
    if (!status || current_loop_command(status->second) != command) {
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
    // Before the options: only SYNERGY_THRESHOLD sets a fixed threshold.
    if (thresholds.convergence.synergy_threshold) {
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
    // No option sets it: a fixed plateau threshold comes from ENTROPY_PLATEAU_THRESHOLD.
    if (thresholds.convergence.entropy_plateau_threshold) {
        thresholds.sources.entropy = "environment";
    }
    return thresholds;
}

// The loop's state as it starts: a new loop's (its seed drawn, its options kept), or the
// interrupted one's, whose options then replace `options`.
AutonomousState starting_state(const config::Settings &settings, const std::string &command,
                               AutonomousOptions &options,
                               const std::filesystem::path &state_path) {
    if (options.recover) {
        auto loaded = load_autonomous_state(state_path);
        if (!loaded || !loaded->stopped.empty() || loaded->command != command) {
            throw InputError(command + " --recover: " + state_path.string() +
                             " holds no unfinished " + command + "; run it without --recover");
        }
        try {
            options = AutonomousOptions::from_json(loaded->options);
        } catch (const nlohmann::json::exception &e) {
            throw InputError(state_path.string() + ": damaged loop options (" + e.what() +
                             "); move it away to start a new loop");
        }
        options.recover = true;
        return std::move(*loaded);
    }
    if (const auto existing = load_autonomous_state(state_path);
        existing && existing->stopped.empty()) {
        throw InputError(command + ": " + state_path.string() + " holds an unfinished " +
                         existing->command + "; go on with `" + existing->command +
                         " --recover`, or move the file away to start a new loop");
    }
    AutonomousState state;
    state.command = command;
    state.seed = options.seed >= 0 ? options.seed : engine::random_seed();
    if (options.preset_strategy.empty()) {
        options.preset_strategy = settings.preset_strategy;
    }
    state.options = options.to_json();
    return state;
}

// Thresholds: the command line, else the environment, else derived from history; fixed
// when the loop starts and kept in its state.
LoopThresholds loop_thresholds(AutonomousState &state, const AutonomousOptions &options,
                               const std::filesystem::path &state_path) {
    if (options.recover) {
        try {
            return LoopThresholds::from_json(state.options.at("thresholds"));
        } catch (const nlohmann::json::exception &e) {
            throw InputError(state_path.string() + ": damaged loop thresholds (" + e.what() +
                             "); move it away to start a new loop");
        }
    }
    auto thresholds = starting_thresholds(options);
    state.options["thresholds"] = thresholds.to_json();
    return thresholds;
}

// The learned policy of a q_learning loop. find-boundaries' brackets, kept in the policy's
// file before it learned, move to their own file first.
presets::QPolicy learned_policy(const std::filesystem::path &policy_path,
                                const std::filesystem::path &boundaries_path) {
    auto loaded = presets::load_q_policy(policy_path);
    if (!loaded.legacy_boundaries.is_null()) {
        reports::save_preset_boundaries(
            boundaries_path, reports::load_preset_boundaries(boundaries_path, policy_path));
    }
    return std::move(loaded.policy);
}

// The synergy of each preset with a combined run, into metrics.db.
void record_synergies(store::Store &store, int64_t session,
                      const std::vector<engine::PresetOutcome> &outcomes) {
    for (const auto &outcome : outcomes) {
        if (outcome.has_combined) {
            std::map<std::string, double> synergy = outcome.synergy.synergy_metrics;
            synergy["synergy_roi"] = outcome.synergy.synergy_roi;
            store::record_synergy(store, session, "autonomous", outcome.preset, synergy);
        }
    }
}

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// One loop from its start (or resumption) to its stop. Every step that changes the state
// saves it, so a loop killed anywhere resumes where it was.
class Loop {
  public:
    Loop(const config::Settings &settings, plugins::Registry &registry, std::string command,
         AutonomousOptions options, LoopObserver &observer);
    LoopOutcome run();

  private:
    bool stops_before(int iteration);
    void run_iteration(int iteration);
    IterationPresets presets_of(int iteration, int64_t seed);
    std::vector<const config::Workflow *> plan(engine::Simulation &simulation,
                                               const IterationPresets &chosen) const;
    int64_t open_session(int iteration, int64_t seed, bool resumed);
    IterationRecord simulate(const engine::MatrixContext &matrix,
                             const engine::Simulation &simulation, const IterationPresets &chosen,
                             int iteration, int64_t seed);
    void decide_after(const IterationRecord &record);
    LoopOutcome outcome();
    [[nodiscard]] double elapsed() const { return state_.elapsed_s + seconds_since(started_); }
    void save() const;

    const config::Settings &settings_;
    plugins::Registry &registry_;
    std::string command_;
    AutonomousOptions options_;
    LoopObserver &observer_;
    std::filesystem::path data_dir_, state_path_, database_, threshold_log_;
    std::filesystem::path boundaries_path_, policy_path_;
    AutonomousState state_;
    LoopThresholds thresholds_;
    std::vector<const config::Workflow *> scoped_;
    std::vector<std::string> module_names_;
    presets::QPolicy policy_;
    std::optional<engine::PluginSet> plugins_;
    std::optional<store::Store> store_;
    std::vector<int64_t> sessions_run_;  // this process's iterations
    std::chrono::steady_clock::time_point started_;
    LoopDecisions decisions_;
};

Loop::Loop(const config::Settings &settings, plugins::Registry &registry, std::string command,
           AutonomousOptions options, LoopObserver &observer)
    : settings_(settings),
      registry_(registry),
      command_(std::move(command)),
      options_(std::move(options)),
      observer_(observer),
      data_dir_(settings.data_dir),
      state_path_(autonomous_state_path(data_dir_)),
      database_(data_dir_ / "metrics.db"),
      threshold_log_(data_dir_ / "threshold_log.jsonl"),
      boundaries_path_(reports::preset_boundaries_path(data_dir_)),
      policy_path_(presets::q_policy_path(settings.preset_policy_path, data_dir_)) {
    state_ = starting_state(settings_, command_, options_, state_path_);
    thresholds_ = loop_thresholds(state_, options_, state_path_);
    // Read now: a foresight history that cannot be read stops the loop before it starts.
    (void)reports::load_foresight_cycles(data_dir_ / "foresight_history.json");
    scoped_ = scoped_workflows(settings_, command_, options_.workflows);
    for (const auto *workflow : scoped_) {
        module_names_.push_back(workflow->name);
    }
    if (options_.preset_strategy == "q_learning") {
        policy_ = learned_policy(policy_path_, boundaries_path_);
    }
    // Every plugin, executor and preset is checked before the first iteration records.
    plugins_.emplace(settings_, registry_);
    store_.emplace(database_);
    started_ = std::chrono::steady_clock::now();
}

LoopOutcome Loop::run() {
    save();
    decisions_ = decide(state_, module_names_, thresholds_.tracker, thresholds_.convergence,
                        thresholds_.sources);
    while (state_.stopped.empty()) {
        const int iteration = static_cast<int>(state_.iterations.size()) + 1;
        if (stops_before(iteration)) {
            break;
        }
        run_iteration(iteration);
    }
    save();
    return outcome();
}

// Whether the loop stops before `iteration`, and why (in the state). Throws
// engine::Cancelled when interrupted, with the state saved.
bool Loop::stops_before(int iteration) {
    if (!decisions_.stop_reason.empty()) {
        state_.stopped = decisions_.stop_reason;
    } else if (iteration > options_.max_iterations) {
        state_.stopped = "--max-iterations " + std::to_string(options_.max_iterations) + " reached";
    } else if (options_.max_minutes > 0 && elapsed() >= options_.max_minutes * 60) {
        state_.stopped = "--max-minutes " + std::to_string(options_.max_minutes) + " reached";
    } else if (plugins::cancel_requested()) {
        save();
        throw engine::Cancelled("interrupted before iteration " + std::to_string(iteration) +
                                "; every finished iteration is kept (" + command_ +
                                " --recover goes on)");
    }
    return !state_.stopped.empty();
}

void Loop::run_iteration(int iteration) {
    const int64_t seed = state_.seed + iteration - 1;
    const IterationPresets chosen = presets_of(iteration, seed);
    engine::Simulation simulation{"autonomous", "all_workflows", {}, {}};
    const auto running = plan(simulation, chosen);
    if (running.empty()) {
        // Only the synergy is left, and it cannot move without its parts.
        state_.stopped = "every module has converged by ROI; the synergy, which had not (" +
                         decisions_.synergy_reason + "), cannot change without them";
        return;
    }
    engine::resolve_plugins_for(*plugins_, running, simulation.presets);
    // The session: the one in flight when a killed loop resumes, else a new one.
    const bool resumed = state_.in_progress && state_.in_progress->first == iteration;
    const int64_t session = open_session(iteration, seed, resumed);
    engine::record_plugins_used(*store_, session, *plugins_);
    sessions_run_.push_back(session);
    const auto iteration_started = std::chrono::steady_clock::now();
    const engine::MatrixContext matrix{settings_,
                                       registry_,
                                       *store_,
                                       session,
                                       std::filesystem::current_path(),
                                       settings_.state_folder(),
                                       resumed,
                                       observer_.iteration_started(iteration)};
    const auto record = engine::within_session(
        *store_, session, [&] { return simulate(matrix, simulation, chosen, iteration, seed); });
    observer_.runs_finished();
    decide_after(record);
    observer_.iteration_finished(record, decisions_, options_.max_iterations,
                                 seconds_since(iteration_started));
}

// The iteration's presets: kept in the state from the moment they are chosen, so a
// --recover runs the same ones.
IterationPresets Loop::presets_of(int iteration, int64_t seed) {
    if (state_.next_presets.is_object() && state_.next_presets.value("iteration", 0) == iteration) {
        return kept_presets(state_.next_presets, state_path_.string());
    }
    auto chosen = iteration_presets(state_, options_, settings_, seed, policy_);
    if (options_.preset_strategy == "q_learning" && !chosen.adaptation.empty()) {
        presets::save_q_policy(policy_path_, policy_);
    }
    state_.next_presets = keep_presets(iteration, chosen);
    save();
    return chosen;
}

// The iteration's simulation: its presets and both sides of every failure boundary
// find-boundaries kept (each iteration as found), over the modules that have not converged
// (skipped, as the simulations skip them). Returns those modules.
std::vector<const config::Workflow *> Loop::plan(engine::Simulation &simulation,
                                                 const IterationPresets &chosen) const {
    simulation.presets = chosen.presets;
    for (const auto &body : reports::boundary_preset_bodies(
             reports::load_preset_boundaries(boundaries_path_, policy_path_), module_names_)) {
        simulation.presets.push_back(
            presets::make_preset(body, boundaries_path_.string(), simulation.presets.size()));
    }
    presets::make_names_unique(simulation.presets);
    std::vector<std::string> preset_names;
    for (const auto &preset : simulation.presets) {
        preset_names.push_back(preset.name);
    }
    const auto &converged = decisions_.converged_modules;
    std::vector<const config::Workflow *> running;
    for (const auto *workflow : scoped_) {
        if (std::find(converged.begin(), converged.end(), workflow->name) == converged.end()) {
            simulation.parts.push_back({*workflow, preset_names});
            running.push_back(workflow);
        }
    }
    return running;
}

int64_t Loop::open_session(int iteration, int64_t seed, bool resumed) {
    if (resumed) {
        return reopen_iteration_session(*store_, state_.in_progress->second, command_, database_);
    }
    const int64_t session = store_->begin_session(
        command_, settings_.source, seed, {{"iteration", iteration}, {"loop", state_.options}});
    state_.in_progress = {iteration, session};
    save();
    return session;
}

IterationRecord Loop::simulate(const engine::MatrixContext &matrix,
                               const engine::Simulation &simulation, const IterationPresets &chosen,
                               int iteration, int64_t seed) {
    const unsigned workers =
        options_.workers != 0 ? options_.workers : std::max(1u, settings_.workers);
    engine::MatrixRunner runner(matrix, *plugins_, workers);
    const auto outcomes = engine::run_simulation(simulation, runner, options_.runs, seed);
    record_synergies(*store_, matrix.session_id, outcomes);
    IterationRecord summary =
        summarize_iteration(iteration, matrix.session_id, seed, simulation.presets, outcomes);
    for (const auto &preset : chosen.presets) {
        summary.preset_bodies.push_back(preset.body);
    }
    summary.adaptation = chosen.adaptation;
    engine::Forecaster forecaster(*plugins_, *store_, matrix.session_id);
    forecast_loop_series(forecaster, state_, summary);
    return summary;
}

// The iteration kept, and what the loop now concludes, each into its file.
void Loop::decide_after(const IterationRecord &record) {
    append_lines(options_.forecast_log, forecast_log_lines(state_, record));
    state_.iterations.push_back(record);
    state_.in_progress.reset();
    state_.next_presets = json();
    decisions_ = decide(state_, module_names_, thresholds_.tracker, thresholds_.convergence,
                        thresholds_.sources);
    append_lines(threshold_log_, decisions_.log);
    save();
}

LoopOutcome Loop::outcome() {
    LoopOutcome outcome{autonomous_report(state_, decisions_, thresholds_.tracker,
                                          data_dir_ / "foresight_history.json"),
                        database_,
                        threshold_log_,
                        state_path_,
                        {}};
    for (const int64_t ran : sessions_run_) {
        for (auto &entry : engine::disabled_plugins(*store_, ran)) {
            outcome.disabled.push_back(std::move(entry));
        }
    }
    return outcome;
}

void Loop::save() const {
    AutonomousState copy = state_;
    copy.elapsed_s = elapsed();
    save_autonomous_state(state_path_, copy);
}

}  // namespace

LoopOutcome run_autonomous_loop(const config::Settings &settings, plugins::Registry &registry,
                                const std::string &command, AutonomousOptions options,
                                LoopObserver &observer) {
    return Loop(settings, registry, command, std::move(options), observer).run();
}

}  // namespace sbx::autonomous
