// The autonomous loop's state, <data_dir>/autonomous_run.json (docs/user-guide.md
// "run-autonomous"): its options, one record per finished iteration and the one in
// progress. Rewritten atomically after every change, so a loop killed at any point resumes
// (--recover) from the last finished iteration and the session of the one in flight. Every
// decision the loop makes is a function of these records, so a resumed loop decides as an
// uninterrupted one would.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "presets/trend_signals.hpp"
#include "scoring/tracker.hpp"

namespace sbx::autonomous {

// What one workflow (module) did in one iteration.
struct ModuleIteration {
    double roi = 0;      // the mean ROI of its cells
    double entropy = 0;  // the mean outcome entropy of its cells, in bits
    int runs = 0;
    int passed = 0;
    // The shown predictor's forecast of its next ROI: value (or null), lower, upper,
    // method, chosen.
    nlohmann::json forecast;
    // The ROI of its cell under each preset, by preset name: what the tracker compares
    // from one iteration to the next. Empty in loops recorded before it was kept.
    std::map<std::string, double> preset_roi;
};

// What one preset did in one iteration, over every module that ran under it: what
// adapt-presets reads of the loop's history.
struct PresetIteration {
    double roi = 0;  // the mean ROI of the modules' cells
    std::optional<double> synergy_roi, security_score;
};

struct IterationRecord {
    int iteration = 0;  // from 1
    int64_t session = 0;
    int64_t seed = 0;
    std::vector<std::string> presets;
    std::map<std::string, ModuleIteration> modules;
    std::optional<double> synergy_roi;  // the mean over presets with a combined run
    // The shown predictor's forecast of the next iteration's synergy_roi (as
    // ModuleIteration::forecast); null without synergy.
    nlohmann::json synergy_forecast;
    std::string finished_at;  // when its runs were done (ISO 8601 UTC)
    // The presets as run (bodies, in order), so the next iteration adapts them and a
    // --recover goes on from them; what each preset did; how the presets were adapted from
    // the previous iteration's (PresetDecision JSON, empty for the first iteration).
    nlohmann::json preset_bodies = nlohmann::json::array();
    std::map<std::string, PresetIteration> preset_results;
    nlohmann::json adaptation = nlohmann::json::array();
};

struct AutonomousState {
    std::string command;     // run-autonomous or run-complete
    nlohmann::json options;  // what --recover needs to go on
    int64_t seed = 0;
    double elapsed_s = 0;  // spent by earlier processes of this loop
    std::vector<IterationRecord> iterations;
    std::optional<std::pair<int, int64_t>> in_progress;  // iteration, session
    // The presets chosen for the next iteration, {iteration, bodies, adaptation}, kept from
    // the moment they are chosen until it is recorded: a --recover runs the same ones, even
    // though the policy has learned since. Null otherwise.
    nlohmann::json next_presets;
    std::string stopped;  // why the loop ended; "" while it goes on
};

std::filesystem::path autonomous_state_path(const std::filesystem::path &data_dir);

// The loop's command as it is called now: a state or a session recorded before 0.1.0 says
// full-autonomous-run, run-autonomous's old name (still its alias), and --recover goes on.
std::string current_loop_command(const std::string &recorded);

// Throws InputError naming the file for one that is not this format.
std::optional<AutonomousState> load_autonomous_state(const std::filesystem::path &path);
void save_autonomous_state(const std::filesystem::path &path, const AutonomousState &state);

// The series of one module over the iterations that ran it, oldest first.
std::vector<double> module_series(const AutonomousState &state, const std::string &module,
                                  double ModuleIteration::*field);
std::vector<double> synergy_series(const AutonomousState &state);
// When each iteration that ran `module` (or, for "", each with synergy) finished.
std::vector<std::string> series_times(const AutonomousState &state, const std::string &module);

// One preset's series over the iterations that ran it, for adapt-presets.
presets::ScenarioSeries preset_series(const AutonomousState &state, const std::string &preset);

// The tracker the records imply. Per module and iteration: for each preset it ran under
// before, one update from that preset's previous ROI to this one (so a loop of three
// presets fills the tracker's window three times as fast, and every delta compares like
// with like); the module's ROI as the RAROI value; its entropy delta with the first of those
// updates (0 with the others, which the entropy ceiling skips). Records without per-preset
// ROIs: one update per iteration against the module's previous one (0 before its first).
scoring::Tracker tracker_from_iterations(const AutonomousState &state,
                                         const scoring::TrackerSettings &settings);

}  // namespace sbx::autonomous
