// `explore WORKFLOW [--slot S] [--runs N] [--seed N] [--preset NAME] [--corpus DIR]
// [--shrink-runs N] [--json]`: a budget of runs spent on one workflow's input, coverage
// guided where the target gives coverage (engine/explorer.hpp); the distinct failures found,
// each shrunk, with its replay line; the corpus kept in DIR to resume from.
#include <boost/program_options.hpp>
#include <filesystem>
#include <iostream>

#include "cli_context.hpp"
#include "engine/corpus_folder.hpp"
#include "engine/explore_session.hpp"
#include "matrix_command.hpp"
#include "option_parsing.hpp"
#include "presets/canonical.hpp"
#include "progress_line.hpp"
#include "reports/replay_line.hpp"
#include "session.hpp"
#include "util/errors.hpp"
#include "workflow_choice.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace sbx::cli {
namespace {

using nlohmann::json;

struct ExploreOptions {
    std::string workflow;
    std::string slot;
    int runs = 1000;
    int64_t seed = 1;
    std::string preset = "hostile_input";
    std::string corpus;
    int shrink_runs = 100;
    bool json = false;
};

ExploreOptions parse(const std::vector<std::string> &args) {
    ExploreOptions options;
    po::options_description description("explore options");
    description.add_options()("workflow", po::value(&options.workflow), "the workflow")(
        "slot", po::value(&options.slot), "the input to explore")("runs", po::value(&options.runs),
                                                                  "runs to spend (default 1000)")(
        "seed", po::value(&options.seed), "the stub strategy's seed (default 1)")(
        "preset", po::value(&options.preset), "the preset the runs use (default hostile_input)")(
        "corpus", po::value(&options.corpus), "a folder to resume the corpus from and keep it in")(
        "shrink-runs", po::value(&options.shrink_runs),
        "runs to spend shrinking each crash (default 100; 0: none)")(
        "json", po::bool_switch(&options.json), "print the result as JSON");
    po::positional_options_description positional;
    positional.add("workflow", 1);
    parse_options("explore", args, description, positional,
                  "write `sandbox-runner explore WORKFLOW [--slot S] [--runs N] [--corpus DIR]`");
    if (options.runs < 1) {
        throw InputError("explore: --runs must be at least 1, not " + std::to_string(options.runs));
    }
    if (options.shrink_runs < 0) {
        throw InputError("explore: --shrink-runs must be 0 (no shrinking) or more, not " +
                         std::to_string(options.shrink_runs));
    }
    return options;
}

// The preset the runs use: one of the settings' presets by SCENARIO_NAME, else a canonical
// profile (or its alias) at low severity.
presets::Preset chosen_preset(const config::Settings &settings, const std::string &name) {
    for (std::size_t i = 0; i < settings.presets.size(); ++i) {
        const json &body = settings.presets[i];
        if (body.value("SCENARIO_NAME", json()) == name) {
            return {name, body, settings.preset_locations[i].str()};
        }
    }
    try {
        const std::string canonical = presets::resolve_profile_alias(name);
        return {canonical, presets::canonical_preset(canonical, presets::Severity::low),
                "the canonical " + canonical + " preset"};
    } catch (const InputError &e) {
        throw InputError("explore: --preset " + name + ": neither a preset of the settings nor " +
                         e.what());
    }
}

// A value for the terminal: strings over 120 bytes cut to their start and their length,
// also inside a string that holds a JSON document (the json slots' values).
json shortened(const json &value) {
    constexpr std::size_t kLongest = 120;
    if (value.is_string()) {
        const auto &text = value.get_ref<const std::string &>();
        if (text.size() <= kLongest) {
            return value;
        }
        const json document = json::parse(text, nullptr, false);
        if (!document.is_discarded() && document.is_structured()) {
            return shortened(document).dump(-1, ' ', false, json::error_handler_t::replace);
        }
        return text.substr(0, 40) + "… (" + std::to_string(text.size()) + " bytes)";
    }
    if (value.is_structured()) {
        json out = value;
        for (auto &member : out) {
            member = shortened(member);
        }
        return out;
    }
    return value;
}

using engine::ShrunkCrash;

json crash_json(const ShrunkCrash &entry, const std::string &commands) {
    json out = {{"signature", entry.crash.signature.key},
                {"summary", entry.crash.signature.summary},
                {"run", entry.crash.run_id},
                {"found_at", entry.crash.found_at},
                {"hits", entry.crash.hits},
                {"replay", reports::replay_line(commands, entry.crash.run_id)}};
    if (entry.shrunk && entry.shrunk->result.reproducible) {
        out["shrunk"] = {{"inputs", entry.shrunk->result.inputs},
                         {"minimal", entry.shrunk->result.minimal},
                         {"broken_by", entry.shrunk->result.broken_by},
                         {"run", entry.shrunk->minimal_run},
                         {"replay", reports::replay_line(commands, entry.shrunk->minimal_run)}};
    }
    return out;
}

void print_text(const engine::ExploreOutcome &outcome, const std::vector<ShrunkCrash> &crashes,
                const ExploreOptions &options, const std::string &commands, int64_t session) {
    std::printf("explore %s: %d runs under %s, input %s\n", options.workflow.c_str(), outcome.runs,
                options.preset.c_str(), outcome.slot.c_str());
    if (outcome.coverage) {
        std::printf("coverage feedback: on; %d runs reached new lines, kept in the corpus (%zu)\n",
                    outcome.runs_with_new_lines, outcome.corpus.size());
    } else {
        std::printf(
            "coverage feedback: off (no run gave line coverage: add `metrics: [+coverage]` and "
            "`injectors: [+coverage_capture]`, with a C/C++ target built with --coverage or a "
            "Python one run by a python3 that has coverage.py)\n");
    }
    if (outcome.accepted == 0 && !outcome.first_refusal.empty()) {
        std::printf(
            "none of the %d runs was accepted: the program refused every input (first: "
            "%s); check the step's command (a relative path is the workspace's) and the "
            "example\n",
            outcome.runs, outcome.first_refusal.c_str());
    }
    if (outcome.exhausted) {
        std::printf("the stub strategy had no new input left after %d runs\n", outcome.runs);
    }
    std::printf("distinct failures: %zu\n", crashes.size());
    int n = 0;
    for (const ShrunkCrash &entry : crashes) {
        const auto &crash = entry.crash;
        std::printf("  %d. %s\n     first at run %d of %d (%d runs failed this way)\n", ++n,
                    crash.signature.summary.c_str(), crash.found_at, outcome.runs, crash.hits);
        if (entry.shrunk && entry.shrunk->result.reproducible) {
            for (const auto &[slot, changes] : entry.shrunk->result.broken_by) {
                std::string said;
                for (const std::string &change : changes) {
                    said += (said.empty() ? "" : ", ") + change;
                }
                std::printf("     broken by: %s (input %s)\n", said.c_str(), slot.c_str());
            }
            std::string text = shortened(entry.shrunk->result.inputs)
                                   .dump(-1, ' ', false, json::error_handler_t::replace);
            if (text.size() > 400) {
                text = text.substr(0, 200) + "… (" + std::to_string(text.size()) + " bytes)";
            }
            std::printf("     minimal input: %s\n", text.c_str());
            std::printf("     replay: %s\n",
                        reports::replay_line(commands, entry.shrunk->minimal_run).c_str());
        } else {
            std::printf("     %s\n     replay: %s\n",
                        entry.shrunk ? "did not crash again when run once more (flaky)"
                                     : "not shrunk (--shrink-runs 0)",
                        reports::replay_line(commands, crash.run_id).c_str());
        }
    }
    if (!options.corpus.empty()) {
        std::printf("corpus: %zu new inputs kept in %s (resume with --corpus %s)\n",
                    outcome.corpus.size(), options.corpus.c_str(), options.corpus.c_str());
    }
    std::printf("recorded as session %lld\n", static_cast<long long>(session));
}

void print_json(const engine::ExploreOutcome &outcome, const std::vector<ShrunkCrash> &crashes,
                const std::string &workflow, const std::string &preset, const std::string &commands,
                int64_t session) {
    json found = json::array();
    for (const ShrunkCrash &entry : crashes) {
        found.push_back(crash_json(entry, commands));
    }
    std::cout << json{{"workflow", workflow},
                      {"session", session},
                      {"slot", outcome.slot},
                      {"preset", preset},
                      {"runs", outcome.runs},
                      {"coverage", outcome.coverage},
                      {"runs_with_new_lines", outcome.runs_with_new_lines},
                      {"accepted", outcome.accepted},
                      {"corpus", outcome.corpus},
                      {"exhausted", outcome.exhausted},
                      {"failures", found}}
                     .dump(2, ' ', false, json::error_handler_t::replace)
              << '\n';
}

}  // namespace

int run_explore_command(CliContext &context, const std::vector<std::string> &args) {
    ExploreOptions options = parse(args);
    auto &settings = context.settings;
    const config::Workflow &workflow = choose_workflow(context, "explore", options.workflow);
    options.workflow = workflow.name;
    const presets::Preset preset = chosen_preset(settings, options.preset);
    engine::ExploreSettings explore_settings;
    explore_settings.slot = engine::explored_slot(workflow, options.slot);
    explore_settings.runs = options.runs;
    explore_settings.seed = options.seed;
    explore_settings.corpus = engine::read_corpus(options.corpus);

    ProgressLine progress(context.options);
    const auto explored = engine::explore_in_session(settings, context.registry(), workflow, preset,
                                                     explore_settings, progress.observer());
    progress.stop();
    auto &store = *explored.store;
    const auto &outcome = explored.outcome;
    if (const auto lost = engine::keep_corpus(options.corpus, outcome.corpus); !lost.empty()) {
        // The runs are recorded; only the corpus is lost, said as such.
        std::fprintf(stderr, "explore: cannot write %s; the corpus is not kept\n", lost.c_str());
    }
    const auto crashes = engine::shrink_crashes(settings, context.registry(), store, workflow,
                                                outcome.crashes, options.shrink_runs);
    const std::string commands = reports::command_prefix(settings.source, settings.data_dir);
    if (options.json) {
        print_json(outcome, crashes, workflow.name, preset.name, commands, explored.session);
    } else {
        print_text(outcome, crashes, options, commands, explored.session);
    }
    std::fflush(stdout);
    return finish_with_disabled_plugins(disabled_plugins(store, explored.session),
                                        settings.plugin_host.strict, kExitOk);
}

}  // namespace sbx::cli
