// `full-autonomous-run` and `run-complete`: the options of the autonomous loop; the loop
// itself is autonomous_loop.cpp.
#include <boost/program_options.hpp>

#include "autonomous_loop.hpp"
#include "cli_context.hpp"
#include "config/setting_values.hpp"
#include "option_parsing.hpp"
#include "session.hpp"
#include "util/errors.hpp"

namespace po = boost::program_options;

namespace sbx::cli {
namespace {

AutonomousOptions parse(const std::string &command, const std::vector<std::string> &args) {
    AutonomousOptions options;
    options.max_iterations = command == "run-complete" ? 1 : 10;
    int workers = 0;
    int roi_cycles = 0;
    int synergy_cycles = 0;
    double roi_threshold = 0;
    double synergy_threshold = 0;
    double entropy_threshold = 0;
    int threshold_window = 0;
    double threshold_weight = 0;
    int consecutive = 0;
    po::options_description description(command + " options");
    description.add_options()("workflow,w", po::value(&options.workflows)->composing(),
                              "a workflow to work on (repeatable; default: every one)")(
        "max-iterations", po::value(&options.max_iterations), "stop after N iterations")(
        "max-minutes", po::value(&options.max_minutes), "stop starting iterations after M minutes")(
        "preset-count", po::value(&options.preset_count), "presets generated per iteration")(
        "preset-file", po::value(&options.preset_files)->composing(), "JSON preset file")(
        "preset-strategy", po::value(&options.preset_strategy),
        "how presets change between iterations: q_learning, rules or fixed")(
        "runs", po::value(&options.runs), "runs per cell (default 1)")(
        "seed", po::value(&options.seed), "seed of the first iteration (then +1 each)")(
        "workers", po::value(&workers), "runs executed at once")(
        "roi-cycles", po::value(&roi_cycles), "cycles within the ROI threshold to converge")(
        "synergy-cycles", po::value(&synergy_cycles), "checks the synergy must pass")(
        "roi-threshold", po::value(&roi_threshold), "fixed ROI tolerance")(
        "synergy-threshold", po::value(&synergy_threshold), "fixed synergy threshold")(
        "entropy-threshold", po::value(&entropy_threshold), "ROI per entropy ceiling")(
        "synergy-threshold-window", po::value(&threshold_window),
        "forecast errors (or points) the derived synergy threshold weighs")(
        "synergy-threshold-weight", po::value(&threshold_weight),
        "weight of the newest in the derived synergy threshold, (0, 1]")(
        "entropy-plateau-consecutive", po::value(&consecutive),
        "iterations of no entropy change before a plateau")(
        "consecutive", po::value(&consecutive), "the same as --entropy-plateau-consecutive")(
        "forecast-log", po::value(&options.forecast_log), "JSONL file of forecasts and actuals")(
        "recover", po::bool_switch(&options.recover), "go on with the interrupted loop")(
        "json", po::bool_switch(&options.json_output), "print the final report as JSON");
    po::positional_options_description positional;
    if (command == "run-complete") {
        positional.add("preset-file", -1);
    }
    const auto vm = parse_options(command, args, description, positional);
    if (options.recover) {
        refuse_with_recover(
            command, vm,
            {"workflow", "max-iterations", "max-minutes", "preset-count", "preset-file", "runs",
             "preset-strategy", "seed", "workers", "roi-cycles", "synergy-cycles", "roi-threshold",
             "synergy-threshold", "entropy-threshold", "synergy-threshold-window",
             "synergy-threshold-weight", "entropy-plateau-consecutive", "consecutive",
             "forecast-log"});
        return options;
    }
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
    options.preset_count_given = vm.count("preset-count") > 0;
    if (!options.preset_strategy.empty() && options.preset_strategy != "fixed" &&
        !config::is_preset_strategy(options.preset_strategy)) {
        fail("--preset-strategy " + options.preset_strategy +
             ": write q_learning (the learned policy), rules (the fixed rules) or fixed (the "
             "first iteration's presets every time)");
    }
    if (options.runs < 1) {
        fail("--runs " + std::to_string(options.runs) + " must be at least 1");
    }
    if (vm.count("seed") && options.seed < 0) {
        fail("--seed " + std::to_string(options.seed) + " must be a whole number from 0 up");
    }
    if (vm.count("workers") && (workers < 1 || workers > static_cast<int>(config::kMaxWorkers))) {
        fail("--workers " + std::to_string(workers) + " must be from 1 to " +
             std::to_string(config::kMaxWorkers));
    }
    options.workers = static_cast<unsigned>(std::max(workers, 0));
    for (const auto &[name, value] :
         {std::pair{"roi-cycles", &roi_cycles}, std::pair{"synergy-cycles", &synergy_cycles}}) {
        if (vm.count(name) && *value < 1) {
            fail(std::string("--") + name + " " + std::to_string(*value) + " must be at least 1");
        }
    }
    if (vm.count("roi-cycles")) {
        options.roi_cycles = roi_cycles;
    }
    if (vm.count("synergy-cycles")) {
        options.synergy_cycles = synergy_cycles;
    }
    for (const auto &[name, value] : {std::pair{"roi-threshold", &roi_threshold},
                                      std::pair{"synergy-threshold", &synergy_threshold},
                                      std::pair{"entropy-threshold", &entropy_threshold}}) {
        if (vm.count(name) && !(*value >= 0)) {
            fail(std::string("--") + name + " must be a number of at least 0");
        }
    }
    if (vm.count("roi-threshold")) {
        options.roi_threshold = roi_threshold;
    }
    if (vm.count("synergy-threshold")) {
        options.synergy_threshold = synergy_threshold;
    }
    if (vm.count("entropy-threshold")) {
        options.entropy_threshold = entropy_threshold;
    }
    if (vm.count("synergy-threshold-window")) {
        if (threshold_window < 2 || threshold_window > 1000) {
            fail("--synergy-threshold-window " + std::to_string(threshold_window) +
                 " must be from 2 to 1000");
        }
        options.synergy_threshold_window = threshold_window;
    }
    if (vm.count("synergy-threshold-weight")) {
        if (!(threshold_weight > 0 && threshold_weight <= 1)) {
            fail(
                "--synergy-threshold-weight must be the weight of the newest value, above 0 "
                "and at most 1 (e.g. 0.3)");
        }
        options.synergy_threshold_weight = threshold_weight;
    }
    if (vm.count("entropy-plateau-consecutive") || vm.count("consecutive")) {
        if (consecutive < 1) {
            fail("--consecutive " + std::to_string(consecutive) + " must be at least 1");
        }
        options.entropy_plateau_consecutive = consecutive;
    }
    return options;
}

}  // namespace

int run_autonomous_command(CliContext &context, const std::string &command,
                           const std::vector<std::string> &args) {
    return run_autonomous_loop(context, command, parse(command, args));
}

}  // namespace sbx::cli
