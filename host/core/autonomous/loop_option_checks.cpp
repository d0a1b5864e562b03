// Checking the autonomous loop's options: the limits and presets, the convergence cycles and
// thresholds, and what derives the thresholds, each group in its own function.
#include "autonomous/loop_option_checks.hpp"

#include <algorithm>

#include "config/setting_values.hpp"
#include "util/errors.hpp"

namespace sbx::autonomous {
namespace {

// The limits and the presets: how long the loop goes and what it runs.
void check_scope(const std::string &command, const std::set<std::string> &written,
                 LoopOptionsAsGiven &given) {
    auto &options = given.loop;
    const auto fail = [&](const std::string &what) { throw InputError(command + ": " + what); };
    if (command == "run-complete" && options.preset_files.empty()) {
        fail("give the presets to run, e.g. run-complete presets.json");
    }
    if (options.max_iterations < 1) {
        fail("--max-iterations " + std::to_string(options.max_iterations) + " must be at least 1");
    }
    if (!(options.max_minutes >= 0)) {
        fail("--max-minutes must be 0 (no limit) or more");
    }
    if (options.preset_count < 1 || options.preset_count > 10000) {
        fail("--preset-count " + std::to_string(options.preset_count) + " must be from 1 to 10000");
    }
    options.preset_count_given = written.count("preset-count") > 0;
    if (!options.preset_strategy.empty() && options.preset_strategy != "fixed" &&
        !config::is_preset_strategy(options.preset_strategy)) {
        fail("--preset-strategy " + options.preset_strategy +
             ": write q_learning (the learned policy), rules (the fixed rules) or fixed (the "
             "first iteration's presets every time)");
    }
    if (options.runs < 1) {
        fail("--runs " + std::to_string(options.runs) + " must be at least 1");
    }
    if (written.count("seed") && options.seed < 0) {
        fail("--seed " + std::to_string(options.seed) + " must be a whole number from 0 up");
    }
    const int workers = given.workers;
    if (written.count("workers") &&
        (workers < 1 || workers > static_cast<int>(config::kMaxWorkers))) {
        fail("--workers " + std::to_string(workers) + " must be from 1 to " +
             std::to_string(config::kMaxWorkers));
    }
    options.workers = static_cast<unsigned>(std::max(workers, 0));
}

// The cycles and thresholds of convergence, kept only when given.
void check_convergence(const std::string &command, const std::set<std::string> &written,
                       LoopOptionsAsGiven &given) {
    auto &options = given.loop;
    const auto fail = [&](const std::string &what) { throw InputError(command + ": " + what); };
    for (const auto &[name, value] : {std::pair{"roi-cycles", &given.roi_cycles},
                                      std::pair{"synergy-cycles", &given.synergy_cycles}}) {
        if (written.count(name) && *value < 1) {
            fail(std::string("--") + name + " " + std::to_string(*value) + " must be at least 1");
        }
    }
    for (const auto &[name, value] : {std::pair{"roi-threshold", &given.roi_threshold},
                                      std::pair{"synergy-threshold", &given.synergy_threshold},
                                      std::pair{"entropy-threshold", &given.entropy_threshold}}) {
        if (written.count(name) && !(*value >= 0)) {
            fail(std::string("--") + name + " must be a number of at least 0");
        }
    }
    const auto keep = [&](const char *name, const auto &value, auto &into) {
        if (written.count(name)) {
            into = value;
        }
    };
    keep("roi-cycles", given.roi_cycles, options.roi_cycles);
    keep("synergy-cycles", given.synergy_cycles, options.synergy_cycles);
    keep("roi-threshold", given.roi_threshold, options.roi_threshold);
    keep("synergy-threshold", given.synergy_threshold, options.synergy_threshold);
    keep("entropy-threshold", given.entropy_threshold, options.entropy_threshold);
}

// The derived thresholds' window and weight, and the entropy plateau's run.
void check_derivation(const std::string &command, const std::set<std::string> &written,
                      LoopOptionsAsGiven &given) {
    auto &options = given.loop;
    const auto fail = [&](const std::string &what) { throw InputError(command + ": " + what); };
    if (written.count("synergy-threshold-window")) {
        if (given.threshold_window < 2 || given.threshold_window > 1000) {
            fail("--synergy-threshold-window " + std::to_string(given.threshold_window) +
                 " must be from 2 to 1000");
        }
        options.synergy_threshold_window = given.threshold_window;
    }
    if (written.count("synergy-threshold-weight")) {
        if (!(given.threshold_weight > 0 && given.threshold_weight <= 1)) {
            fail(
                "--synergy-threshold-weight must be the weight of the newest value, above 0 "
                "and at most 1 (e.g. 0.3)");
        }
        options.synergy_threshold_weight = given.threshold_weight;
    }
    if (written.count("entropy-plateau-consecutive") || written.count("consecutive")) {
        if (given.consecutive < 1) {
            fail("--consecutive " + std::to_string(given.consecutive) + " must be at least 1");
        }
        options.entropy_plateau_consecutive = given.consecutive;
    }
}

}  // namespace

AutonomousOptions checked_loop_options(const std::string &command, LoopOptionsAsGiven given,
                                       const std::set<std::string> &written) {
    check_scope(command, written, given);
    check_convergence(command, written, given);
    check_derivation(command, written, given);
    return given.loop;
}

}  // namespace sbx::autonomous
