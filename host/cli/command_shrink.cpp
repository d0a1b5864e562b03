// `shrink RUN_ID [--max-runs N] [--json]`: the smallest inputs and fewest fault keys with
// which a recorded failed run still fails the same way (same failed step, status and
// outcome class). Each candidate is a recorded run of one session, `shrink RUN_ID`; the
// report ends with the `replay` line of the minimal one.
#include <boost/program_options.hpp>
#include <iostream>

#include "cli_context.hpp"
#include "engine/input_shrink.hpp"
#include "engine/plugin_set.hpp"
#include "engine/recorded_run.hpp"
#include "engine/recorded_shrink.hpp"
#include "engine/shrinker.hpp"
#include "matrix_command.hpp"
#include "option_parsing.hpp"
#include "reports/replay_line.hpp"
#include "session.hpp"
#include "util/errors.hpp"
#include "workflow_choice.hpp"

namespace po = boost::program_options;

namespace sbx::cli {
namespace {

using nlohmann::json;

struct ShrinkOptions {
    int64_t run_id = 0;
    int max_runs = 500;
    bool json = false;
};

ShrinkOptions parse(const std::vector<std::string> &args) {
    ShrinkOptions options;
    po::options_description description("shrink options");
    description.add_options()("run", po::value(&options.run_id), "the failed run's id (runs.id)")(
        "max-runs", po::value(&options.max_runs), "runs to spend at most (default 500)")(
        "json", po::bool_switch(&options.json), "print the result as JSON");
    po::positional_options_description positional;
    positional.add("run", 1);
    const auto vm = parse_options("shrink", args, description, positional,
                                  "write `sandbox-runner shrink RUN_ID [--max-runs N] [--json]`");
    if (!vm.count("run") || options.run_id < 1) {
        throw InputError(
            "shrink: name a failed run by its id (runs.id, as a report's `replay:` line gives "
            "it), e.g. `sandbox-runner shrink 42`");
    }
    if (options.max_runs < 1) {
        throw InputError("shrink: --max-runs must be at least 1 (the original's run), not " +
                         std::to_string(options.max_runs));
    }
    return options;
}

// "failed at step parse (SG, crashed)".
std::string failure_text(const store::RecordedRun &run) {
    std::string text =
        engine::outcome_text(run.passed, run.failed_step, engine::failed_status(run));
    if (!run.passed && !run.outcome.empty()) {
        text.insert(text.size() - 1, ", " + run.outcome);
    }
    return text;
}

// A member name as a JSON pointer token (RFC 6901: ~ as ~0, / as ~1).
std::string pointer_token(const std::string &name) {
    std::string token;
    for (const char c : name) {
        token += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
    }
    return token;
}

// The `$bytes` values of `value` by JSON pointer, as readable text.
void collect_bytes(const json &value, const std::string &pointer, json &found) {
    if (const auto bytes = engine::bytes_of(value)) {
        found[pointer] = engine::escaped_bytes(*bytes);
    } else if (value.is_object()) {
        for (const auto &[name, member] : value.items()) {
            collect_bytes(member, pointer + "/" + pointer_token(name), found);
        }
    } else if (value.is_array()) {
        for (size_t i = 0; i < value.size(); ++i) {
            collect_bytes(value[i], pointer + "/" + std::to_string(i), found);
        }
    }
}

void print_text(const store::RecordedRun &original, const engine::ShrinkResult &result,
                const json &report, int max_runs) {
    std::printf("run %lld (%s under %s, %s): %s\n", static_cast<long long>(original.id),
                original.workflow.c_str(), original.preset_name.c_str(), original.flag.c_str(),
                failure_text(original).c_str());
    if (result.minimal) {
        std::printf("shrunk in %d runs: minimal (removing anything more loses the failure)\n",
                    result.runs);
    } else {
        std::printf(
            "shrunk in %d runs: out of budget (--max-runs %d); smaller, but maybe not minimal\n",
            result.runs, max_runs);
    }
    const size_t before = report["original_size"];
    const size_t after = report["minimal_size"];
    std::printf("input: %zu -> %zu bytes (%zu removed)\n", before, after, before - after);
    std::printf("minimal input: %s\n", result.inputs.dump().c_str());
    for (const auto &[pointer, text] : report["bytes"].items()) {
        std::printf("  %s: bytes \"%s\"\n", pointer.c_str(),
                    text.get_ref<const std::string &>().c_str());
    }
    std::string removed;
    for (const auto &key : result.removed_fault_keys) {
        removed += (removed.empty() ? "" : ", ") + key;
    }
    std::printf("fault keys removed: %s\n", removed.empty() ? "none" : removed.c_str());
    if (!result.removed_fault_keys.empty()) {
        std::printf("minimal preset: %s\n", result.preset_body.dump().c_str());
    }
    for (const auto &[slot, changes] : result.broken_by) {
        std::string said;
        for (const std::string &change : changes) {
            said += (said.empty() ? "" : ", ") + change;
        }
        std::printf("broken by: %s (slot %s: its example with just %s)\n", said.c_str(),
                    slot.c_str(), changes.size() == 1 ? "this change" : "these changes");
    }
    for (const auto &[slot, category] : report["belongs_to"].items()) {
        std::printf("belongs to: %s (slot %s)\n", category.get_ref<const std::string &>().c_str(),
                    slot.c_str());
    }
    std::printf("replay: %s\n", report["replay"].get<std::string>().c_str());
}

// A failure that did not come back: nothing to shrink.
void print_not_reproducible(const store::RecordedRun &original,
                            const engine::RecordedShrink &shrunk, bool as_json) {
    const auto &first = shrunk.first;
    if (as_json) {
        std::cout << json{{"run", original.id},
                          {"session", shrunk.session},
                          {"reproducible", false},
                          {"runs", shrunk.result.runs},
                          {"replay_run", first ? first->id : 0}}
                         .dump(2)
                  << '\n';
        return;
    }
    const std::string again =
        first ? "run " + std::to_string(first->id) + ": " + failure_text(*first) : "not recorded";
    std::printf("run %lld (%s under %s, %s): %s\n", static_cast<long long>(original.id),
                original.workflow.c_str(), original.preset_name.c_str(), original.flag.c_str(),
                failure_text(original).c_str());
    std::printf("again as %s\n", again.c_str());
    std::printf(
        "not reproducible: the run no longer fails the same way, so there is "
        "nothing to shrink\n");
}

// What `shrink --json` prints of a shrunk failure (the text output reads it too).
json shrink_report(const config::Settings &settings, const store::RecordedRun &original,
                   const engine::RecordedShrink &shrunk, int max_runs) {
    const auto &result = shrunk.result;
    json bytes = json::object();
    collect_bytes(result.inputs, "", bytes);
    return {
        {"run", original.id},
        {"session", shrunk.session},
        {"reproducible", true},
        {"failure",
         {{"failed_step", original.failed_step},
          {"status", engine::failed_status(original)},
          {"outcome", original.outcome}}},
        {"minimal", result.minimal},
        {"runs", result.runs},
        {"max_runs", max_runs},
        {"inputs", result.inputs},
        {"bytes", bytes},
        {"original_size", engine::inputs_size(original.inputs)},
        {"minimal_size", engine::inputs_size(result.inputs)},
        {"bytes_removed",
         engine::inputs_size(original.inputs) - engine::inputs_size(result.inputs)},
        {"fault_keys_removed", result.removed_fault_keys},
        {"preset", result.preset_body},
        {"belongs_to", shrunk.belongs_to},
        {"broken_by", result.broken_by},
        {"minimal_run", shrunk.minimal_run},
        {"replay", reports::replay_line(reports::command_prefix(settings.source, settings.data_dir),
                                        shrunk.minimal_run)}};
}

}  // namespace

int run_shrink_command(CliContext &context, const std::vector<std::string> &args) {
    const auto options = parse(args);
    const auto db = engine::recorded_database(context.settings, "shrink");
    store::Store store(db);
    const auto original = engine::find_recorded_run(store, db, "shrink", options.run_id);
    if (original.passed) {
        throw InputError("shrink: run " + std::to_string(original.id) +
                         " passed; shrink needs a failed run (a report's `replay:` line names "
                         "one)");
    }
    const auto &workflow = recorded_workflow(context, "shrink", original);
    const auto shrunk = engine::shrink_recorded_run(context.settings, context.registry(), store,
                                                    original, workflow, options.max_runs);
    if (!shrunk.result.reproducible) {
        print_not_reproducible(original, shrunk, options.json);
        return kExitGateFailed;
    }
    const json report = shrink_report(context.settings, original, shrunk, options.max_runs);
    if (options.json) {
        std::cout << report.dump(2, ' ', false, json::error_handler_t::replace) << '\n';
    } else {
        print_text(original, shrunk.result, report, options.max_runs);
    }
    return kExitOk;
}

}  // namespace sbx::cli
