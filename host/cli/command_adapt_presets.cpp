// `adapt-presets`: the presets a command would run, each stepped milder or harsher from
// what roi_history.json says of its scenario (docs/user-guide.md "adapt-presets"), by the
// learned policy (kept in preset_policy.json) or the rules; written as a preset file the
// next run-scenarios or run-autonomous takes.
#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>

#include "autonomous/preset_adapting.hpp"
#include "cli_context.hpp"
#include "config/setting_values.hpp"
#include "matrix_command.hpp"
#include "option_parsing.hpp"
#include "output_file.hpp"
#include "presets/preset_adaptation.hpp"
#include "util/errors.hpp"

namespace po = boost::program_options;

namespace sbx::cli {
namespace {

using nlohmann::json;

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

void print_decision(const presets::PresetDecision &decision) {
    if (decision.strategy.empty()) {
        std::printf("  %-28s as written (%s)\n", decision.scenario.c_str(), decision.note.c_str());
        return;
    }
    const auto &signals = decision.signals;
    std::printf("  %-28s %s: ROI %s (%zu values), synergy %s, security %s%s%s\n",
                decision.scenario.c_str(), decision.strategy.c_str(),
                presets::trend_name(signals.roi), signals.roi_samples,
                presets::trend_name(signals.synergy), presets::level_name(signals.security),
                decision.note.empty() ? "" : "; ", decision.note.c_str());
    if (decision.reward) {
        std::printf("    learned from its last steps: reward %.3f\n", *decision.reward);
    }
    for (const auto &key : decision.keys) {
        const std::string change =
            key.result.changed ? key.result.from + " -> " + key.result.to : key.result.from;
        std::printf("    %-20s %-18s %-8s %s%s%s\n", key.key.c_str(), change.c_str(),
                    presets::step_name(key.step), key.why.c_str(),
                    key.result.note.empty() ? "" : "; ", key.result.note.c_str());
    }
}

void print_json(const autonomous::AdaptedPresets &adapted, int64_t seed) {
    json decisions = json::array();
    for (const auto &decision : adapted.decisions) {
        decisions.push_back(presets::to_json(decision));
    }
    const bool learning = adapted.strategy == "q_learning";
    std::cout << json{{"strategy", adapted.strategy},
                      {"seed", seed},
                      {"history", adapted.history.string()},
                      {"policy", learning ? json(adapted.policy.string()) : json()},
                      {"out", adapted.out.string()},
                      {"changed", adapted.changed},
                      {"decisions", decisions},
                      {"presets", adapted.bodies}}
                     .dump(2)
              << '\n';
}

void print_text(const autonomous::AdaptedPresets &adapted, int64_t seed) {
    std::printf("adapt-presets: %zu preset%s, %s (seed %lld), history %s\n", adapted.chosen,
                adapted.chosen == 1 ? "" : "s", adapted.strategy.c_str(),
                static_cast<long long>(seed), adapted.history.c_str());
    for (const auto &decision : adapted.decisions) {
        print_decision(decision);
    }
    std::printf("%d setting%s changed; adapted presets in %s", adapted.changed,
                adapted.changed == 1 ? "" : "s", adapted.out.c_str());
    if (adapted.strategy == "q_learning") {
        std::printf("; policy kept in %s", adapted.policy.c_str());
    }
    std::printf("\n");
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
        print_json(adapted, options.seed);
    } else {
        print_text(adapted, options.seed);
    }
    std::fflush(stdout);
    return kExitOk;
}

}  // namespace sbx::cli
