// Shrinking a recorded failed run, each candidate recorded.
#include "engine/recorded_shrink.hpp"

#include <filesystem>
#include <map>

#include "engine/cell_runner.hpp"
#include "engine/crash_signature.hpp"
#include "engine/example_diff.hpp"
#include "engine/plugin_resolution.hpp"
#include "engine/plugin_set.hpp"
#include "engine/recorded_run.hpp"
#include "engine/session_bookkeeping.hpp"
#include "engine/shrunk_category.hpp"
#include "engine/workflow_runner.hpp"
#include "util/errors.hpp"

namespace sbx::engine {
namespace {

using nlohmann::json;

// For each slot whose meta (under any strategy) lists polyglot parts: the part its shrunk
// value belongs to.
json categories(const json &input_meta, const json &inputs) {
    json found = json::object();
    if (!input_meta.is_object() || !inputs.is_object()) {
        return found;
    }
    for (const auto &[strategy, slots] : input_meta.items()) {
        if (!slots.is_object()) {
            continue;
        }
        for (const auto &[slot, entry] : slots.items()) {
            if (!inputs.contains(slot)) {
                continue;
            }
            const auto category = shrunk_category(entry, inputs[slot]);
            if (!category.empty()) {
                found[slot] = category;
            }
        }
    }
    return found;
}

}  // namespace

bool fails_the_same_way(const store::RecordedRun &original, const store::RecordedRun &again) {
    if (again.passed || again.failed_step != original.failed_step ||
        failed_status(again) != failed_status(original) ||
        (!original.outcome.empty() && again.outcome != original.outcome)) {
        return false;
    }
    // A crash stays the same crash: shrinking one input bug must not drift into another.
    // (Not asked of other failures: their stderr often quotes the input, which shrinks.)
    const bool crashed = original.outcome == "crashed" || original.outcome == "hung";
    const auto crash = crashed ? crash_signature(original) : std::nullopt;
    const auto crash_again = crash ? crash_signature(again) : std::nullopt;
    return !crash || (crash_again && crash_again->key == crash->key);
}

RecordedShrink shrink_recorded_run(const config::Settings &settings, plugins::Registry &registry,
                                   store::Store &store, const store::RecordedRun &original,
                                   const config::Workflow &workflow, int max_runs) {
    const std::string origin = (std::filesystem::path(settings.data_dir) / "metrics.db").string() +
                               ": preset of run " + std::to_string(original.id);
    PluginSet plugins(settings, registry);
    resolve_plugins_for(plugins, {&workflow}, {});
    RecordedShrink shrunk;
    shrunk.session =
        store.begin_session("shrink " + std::to_string(original.id), settings.source, original.seed,
                            json{{"run", original.id}, {"max_runs", max_runs}});
    record_plugins_used(store, shrunk.session, plugins);
    WorkflowRunner runner(plugins, settings, std::filesystem::current_path(),
                          settings.state_folder().string());
    CellRunner cells(plugins, runner, store, shrunk.session);
    std::map<std::string, int64_t> failing_runs;  // candidate key -> its run's id
    const auto fails = [&](const json &inputs, const json &body) {
        auto work = rerun_work(store, workflow, {original.preset_name, body, origin}, original,
                               inputs, "shrink");
        try {
            cells.run_one(work, original.repetition);
        } catch (const InputError &) {
            return false;  // a preset without a key it needed is refused: not this failure
        }
        auto again = store::find_run(store, work.results.back().run_id);
        if (!shrunk.first) {
            shrunk.first = again;
        }
        const bool same = again && fails_the_same_way(original, *again);
        if (same) {
            failing_runs[candidate_key(inputs, body)] = again->id;
        }
        return same;
    };
    shrunk.result = within_session(store, shrunk.session, [&] {
        return shrink_failure(original.inputs, original.preset_body, fails, max_runs,
                              slot_examples(workflow));
    });
    if (shrunk.result.reproducible) {
        shrunk.minimal_run =
            failing_runs.at(candidate_key(shrunk.result.inputs, shrunk.result.preset_body));
        shrunk.belongs_to = categories(original.input_meta, shrunk.result.inputs);
    }
    return shrunk;
}

}  // namespace sbx::engine
