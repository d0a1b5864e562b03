// `run-autonomous` and `run-complete`: the options of the autonomous loop; the loop
// itself is host/core/autonomous/loop.cpp, what it shows autonomous_output.cpp.
#include <boost/program_options.hpp>

#include "autonomous/loop.hpp"
#include "autonomous/loop_option_checks.hpp"
#include "autonomous_output.hpp"
#include "cli_context.hpp"
#include "option_parsing.hpp"
#include "session.hpp"
#include "util/errors.hpp"

namespace po = boost::program_options;

namespace sbx::cli {
namespace {

using autonomous::AutonomousOptions;

// The loop's options checked, and --json, which only the command line has.
struct ParsedCommand {
    AutonomousOptions loop;
    bool json_output = false;
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

void describe(po::options_description &description, autonomous::LoopOptionsAsGiven &given,
              bool &json_output) {
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
        "json", po::bool_switch(&json_output), "print the final report as JSON");
}

ParsedCommand parse(const std::string &command, const std::vector<std::string> &args) {
    autonomous::LoopOptionsAsGiven given;
    ParsedCommand parsed;
    given.loop.max_iterations = command == "run-complete" ? 1 : 10;
    po::options_description description(command + " options");
    describe(description, given, parsed.json_output);
    po::positional_options_description positional;
    if (command == "run-complete") {
        positional.add("preset-file", -1);
    }
    const auto vm = parse_options(command, args, description, positional);
    if (given.loop.recover) {
        refuse_with_recover(command, vm, kKeptByTheLoop);
        parsed.loop = given.loop;
        return parsed;
    }
    parsed.loop = autonomous::checked_loop_options(command, given, written_options(vm));
    return parsed;
}

}  // namespace

int run_autonomous_command(CliContext &context, const std::string &command,
                           const std::vector<std::string> &args) {
    const auto parsed = parse(command, args);
    LoopPrinter printer(context.options, parsed.json_output);
    const auto outcome = autonomous::run_autonomous_loop(context.settings, context.registry(),
                                                         command, parsed.loop, printer);
    print_loop_outcome(outcome, parsed.json_output);
    return finish_with_disabled_plugins(outcome.disabled, context.settings.plugin_host.strict,
                                        kExitOk);
}

}  // namespace sbx::cli
