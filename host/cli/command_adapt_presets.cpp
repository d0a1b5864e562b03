// `adapt-presets`: the presets a command would run, each stepped milder or harsher from
// what roi_history.json says of its scenario (docs/user-guide.md "adapt-presets"), by the
// learned policy (kept in preset_policy.json) or the rules; written as a preset file the
// next run-scenarios or run-autonomous takes.
#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>

#include "autonomous/adapted_presets_report.hpp"
#include "autonomous/preset_adapting.hpp"
#include "cli_context.hpp"
#include "config/setting_values.hpp"
#include "matrix_command.hpp"
#include "option_parsing.hpp"
#include "output_file.hpp"
#include "util/errors.hpp"

namespace po = boost::program_options;

namespace sbx::cli {
namespace {

struct AdaptOptions {
    std::vector<std::string> preset_files;
    int preset_count = 3;
    int64_t seed = -1;
    std::string strategy;
    std::string history;
    std::string out;
    bool json_output = false;
};

AdaptOptions parse(const std::vector<std::string> &args) {
    for (const auto &arg : args) {
        if (arg == "--axis" || arg.rfind("--axis=", 0) == 0 || arg == "--break-below" ||
            arg == "--preset-debug") {
            throw InputError("adapt-presets: " + arg.substr(0, arg.find('=')) +
                             " belongs to find-boundaries, the failure-boundary search (called "
                             "adapt-presets before presets learned); run `sandbox-runner "
                             "find-boundaries` with the same options");
        }
    }
    AdaptOptions options;
    po::options_description description("adapt-presets options");
    description.add_options()("preset-file", po::value(&options.preset_files)->composing(),
                              "JSON preset file (repeatable)")(
        "preset-count", po::value(&options.preset_count), "presets generated when none are given")(
        "seed", po::value(&options.seed), "seed of generated presets and of random steps")(
        "strategy", po::value(&options.strategy), "q_learning (default) or rules")(
        "history", po::value(&options.history), "the roi_history.json to read")(
        "out", po::value(&options.out), "where the adapted presets go")(
        "json", po::bool_switch(&options.json_output), "print the decisions as JSON");
    po::positional_options_description positional;
    positional.add("preset-file", -1);
    const auto vm = parse_options("adapt-presets", args, description, positional);
    const auto fail = [](const std::string &what) { throw InputError("adapt-presets: " + what); };
    if (options.preset_count < 1 || options.preset_count > 10000) {
        fail("--preset-count " + std::to_string(options.preset_count) + " must be from 1 to 10000");
    }
    if (vm.count("seed") && options.seed < 0) {
        fail("--seed must be a whole number from 0 up");
    }
    if (!options.strategy.empty() && !config::is_preset_strategy(options.strategy)) {
        fail("--strategy " + options.strategy +
             ": write q_learning (the learned policy) or rules (the fixed rules alone)");
    }
    if (!options.out.empty()) {
        check_output_file(options.out, "--out", "adapted.json");
    }
    return options;
}

}  // namespace

int run_adapt_presets_command(CliContext &context, const std::vector<std::string> &args) {
    auto options = parse(args);
    if (options.seed < 0) {
        options.seed = random_seed();
    }
    const auto adapted = autonomous::adapt_and_write_presets(
        context.settings, {options.preset_files, options.preset_count, options.seed,
                           options.strategy, options.history, options.out});
    if (options.json_output) {
        std::cout << autonomous::adapted_presets_json(adapted, options.seed).dump(2) << '\n';
    } else {
        std::cout << autonomous::adapted_presets_text(adapted, options.seed);
    }
    std::fflush(stdout);
    return kExitOk;
}

}  // namespace sbx::cli
