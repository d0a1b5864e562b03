// Replaying a recorded run in its own session.
#include "engine/recorded_replay.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "engine/cell_runner.hpp"
#include "engine/plugin_resolution.hpp"
#include "engine/plugin_set.hpp"
#include "engine/recorded_run.hpp"
#include "engine/session_bookkeeping.hpp"
#include "engine/workflow_runner.hpp"

namespace sbx::engine {

Replayed replay_recorded_run(const config::Settings &settings, plugins::Registry &registry,
                             store::Store &store, const store::RecordedRun &original,
                             const config::Workflow &workflow, const presets::Preset &preset) {
    PluginSet plugins(settings, registry);
    resolve_plugins_for(plugins, {&workflow}, {});
    Replayed replayed;
    replayed.session = store.begin_session("replay " + std::to_string(original.id), settings.source,
                                           original.seed, nlohmann::json{{"run", original.id}});
    record_plugins_used(store, replayed.session, plugins);
    WorkflowRunner runner(plugins, settings, std::filesystem::current_path(),
                          settings.state_folder().string());
    CellRunner cells(plugins, runner, store, replayed.session);
    // A cell of one slot at the run's own repetition: the same fault seed as the original.
    auto work = rerun_work(store, workflow, preset, original, original.inputs, "replay");
    within_session(store, replayed.session, [&] {
        cells.run_one(work, original.repetition);
        return 0;
    });
    replayed.again = store::find_run(store, work.results.back().run_id);
    const auto &again = replayed.again;
    replayed.reproduced = again && again->passed == original.passed &&
                          again->failed_step == original.failed_step &&
                          failed_status(*again) == failed_status(original);
    return replayed;
}

}  // namespace sbx::engine
