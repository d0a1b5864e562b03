// `run-autonomous` and `run-complete`: the options of the autonomous loop; the loop
// itself is host/core/autonomous/loop.cpp, what it shows autonomous_output.cpp.
#include <boost/program_options.hpp>

#include "autonomous/loop.hpp"
#include "autonomous_output.hpp"
#include "cli_context.hpp"
#include "config/setting_values.hpp"
#include "option_parsing.hpp"
#include "session.hpp"
#include "util/errors.hpp"

namespace po = boost::program_options;

namespace sbx::cli {
namespace {

using autonomous::AutonomousOptions;

// The options as given, before they are checked: the numbers the loop keeps as optionals
// are read into plain ones first.
struct GivenOptions {
    AutonomousOptions loop;
    bool json_output = false;
    int workers = 0;
    int roi_cycles = 0;
    int synergy_cycles = 0;
    double roi_threshold = 0;
    double synergy_threshold = 0;
    double entropy_threshold = 0;
    int threshold_window = 0;
    double threshold_weight = 0;
    int consecutive = 0;
};

// --recover takes these from the interrupted loop.
const std::initializer_list<const char *> kKeptByTheLoop = {"workflow",
                                                            "max-iterations",
                                                            "max-minutes",
                                                            "preset-count",
                                                            "preset-file",
                                                            "runs",
                                                            "preset-strategy",
                                                            "seed",
                                                            "workers",
                                                            "roi-cycles",
                                                            "synergy-cycles",
                                                            "roi-threshold",
                                                            "synergy-threshold",
                                                            "entropy-threshold",
                                                            "synergy-threshold-window",
                                                            "synergy-threshold-weight",
                                                            "entropy-plateau-consecutive",
                                                            "consecutive",
                                                            "forecast-log"};

void describe(po::options_description &description, GivenOptions &given) {
    auto &options = given.loop;
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
        "workers", po::value(&given.workers), "runs executed at once")(
        "roi-cycles", po::value(&given.roi_cycles), "cycles within the ROI threshold to converge")(
        "synergy-cycles", po::value(&given.synergy_cycles), "checks the synergy must pass")(
        "roi-threshold", po::value(&given.roi_threshold), "fixed ROI tolerance")(
        "synergy-threshold", po::value(&given.synergy_threshold), "fixed synergy threshold")(
        "entropy-threshold", po::value(&given.entropy_threshold), "ROI per entropy ceiling")(
        "synergy-threshold-window", po::value(&given.threshold_window),
        "forecast errors (or points) the derived synergy threshold weighs")(
        "synergy-threshold-weight", po::value(&given.threshold_weight),
        "weight of the newest in the derived synergy threshold, (0, 1]")(
        "entropy-plateau-consecutive", po::value(&given.consecutive),
        "iterations of no entropy change before a plateau")(
        "consecutive", po::value(&given.consecutive), "the same as --entropy-plateau-consecutive")(
        "forecast-log", po::value(&options.forecast_log), "JSONL file of forecasts and actuals")(
        "recover", po::bool_switch(&options.recover), "go on with the interrupted loop")(
        "json", po::bool_switch(&given.json_output), "print the final report as JSON");
}

// The limits and the presets: how long the loop goes and what it runs.
void check_scope(const std::string &command, const po::variables_map &vm, GivenOptions &given) {
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
    const int workers = given.workers;
    if (vm.count("workers") && (workers < 1 || workers > static_cast<int>(config::kMaxWorkers))) {
        fail("--workers " + std::to_string(workers) + " must be from 1 to " +
             std::to_string(config::kMaxWorkers));
    }
    options.workers = static_cast<unsigned>(std::max(workers, 0));
}

// The cycles and thresholds of convergence, kept only when given.
void check_convergence(const std::string &command, const po::variables_map &vm,
                       GivenOptions &given) {
    auto &options = given.loop;
    const auto fail = [&](const std::string &what) { throw InputError(command + ": " + what); };
    for (const auto &[name, value] : {std::pair{"roi-cycles", &given.roi_cycles},
                                      std::pair{"synergy-cycles", &given.synergy_cycles}}) {
        if (vm.count(name) && *value < 1) {
            fail(std::string("--") + name + " " + std::to_string(*value) + " must be at least 1");
        }
    }
    for (const auto &[name, value] : {std::pair{"roi-threshold", &given.roi_threshold},
                                      std::pair{"synergy-threshold", &given.synergy_threshold},
                                      std::pair{"entropy-threshold", &given.entropy_threshold}}) {
        if (vm.count(name) && !(*value >= 0)) {
            fail(std::string("--") + name + " must be a number of at least 0");
        }
    }
    const auto keep = [&](const char *name, const auto &value, auto &into) {
        if (vm.count(name)) {
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
void check_derivation(const std::string &command, const po::variables_map &vm,
                      GivenOptions &given) {
    auto &options = given.loop;
    const auto fail = [&](const std::string &what) { throw InputError(command + ": " + what); };
    if (vm.count("synergy-threshold-window")) {
        if (given.threshold_window < 2 || given.threshold_window > 1000) {
            fail("--synergy-threshold-window " + std::to_string(given.threshold_window) +
                 " must be from 2 to 1000");
        }
        options.synergy_threshold_window = given.threshold_window;
    }
    if (vm.count("synergy-threshold-weight")) {
        if (!(given.threshold_weight > 0 && given.threshold_weight <= 1)) {
            fail(
                "--synergy-threshold-weight must be the weight of the newest value, above 0 "
                "and at most 1 (e.g. 0.3)");
        }
        options.synergy_threshold_weight = given.threshold_weight;
    }
    if (vm.count("entropy-plateau-consecutive") || vm.count("consecutive")) {
        if (given.consecutive < 1) {
            fail("--consecutive " + std::to_string(given.consecutive) + " must be at least 1");
        }
        options.entropy_plateau_consecutive = given.consecutive;
    }
}

GivenOptions parse(const std::string &command, const std::vector<std::string> &args) {
    GivenOptions given;
    given.loop.max_iterations = command == "run-complete" ? 1 : 10;
    po::options_description description(command + " options");
    describe(description, given);
    po::positional_options_description positional;
    if (command == "run-complete") {
        positional.add("preset-file", -1);
    }
    const auto vm = parse_options(command, args, description, positional);
    if (given.loop.recover) {
        refuse_with_recover(command, vm, kKeptByTheLoop);
        return given;
    }
    check_scope(command, vm, given);
    check_convergence(command, vm, given);
    check_derivation(command, vm, given);
    return given;
}

}  // namespace

int run_autonomous_command(CliContext &context, const std::string &command,
                           const std::vector<std::string> &args) {
    const auto given = parse(command, args);
    LoopPrinter printer(context.options, given.json_output);
    const auto outcome = autonomous::run_autonomous_loop(context.settings, context.registry(),
                                                         command, given.loop, printer);
    print_loop_outcome(outcome, given.json_output);
    return finish_with_disabled_plugins(outcome.disabled, context.settings.plugin_host.strict,
                                        kExitOk);
}

}  // namespace sbx::cli
