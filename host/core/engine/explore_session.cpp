// An exploring session, and its crashes shrunk.
#include "engine/explore_session.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>

#include "engine/cell_runner.hpp"
#include "engine/plugin_resolution.hpp"
#include "engine/plugin_set.hpp"
#include "engine/program_preflight.hpp"
#include "engine/session_bookkeeping.hpp"
#include "engine/workflow_runner.hpp"
#include "store/run_lookup.hpp"

namespace sbx::engine {

ExploreSession explore_in_session(const config::Settings &settings, plugins::Registry &registry,
                                  const config::Workflow &workflow, const presets::Preset &preset,
                                  const ExploreSettings &explore, RunObserver *observer) {
    PluginSet plugins(settings, registry);
    resolve_plugins_for(plugins, {&workflow}, {preset});
    refuse_missing_programs(plugins, workflow, std::filesystem::current_path());
    ExploreSession explored;
    explored.store =
        std::make_unique<store::Store>(std::filesystem::path(settings.data_dir) / "metrics.db");
    auto &store = *explored.store;
    explored.session = store.begin_session(
        "explore " + workflow.name, settings.source, explore.seed,
        nlohmann::json{{"slot", explore.slot}, {"runs", explore.runs}, {"preset", preset.name}});
    record_plugins_used(store, explored.session, plugins);
    WorkflowRunner runner(plugins, settings, std::filesystem::current_path(),
                          settings.state_folder().string());
    CellRunner cells(plugins, runner, store, explored.session);
    explored.outcome = within_session(store, explored.session, [&] {
        return engine::explore(plugins, cells, store, workflow, preset, explore, observer);
    });
    return explored;
}

std::vector<ShrunkCrash> shrink_crashes(const config::Settings &settings,
                                        plugins::Registry &registry, store::Store &store,
                                        const config::Workflow &workflow,
                                        const std::vector<ExploreCrash> &crashes, int max_runs) {
    std::vector<ShrunkCrash> shrunk;
    for (const ExploreCrash &crash : crashes) {
        ShrunkCrash entry{crash, std::nullopt};
        if (max_runs > 0) {
            const auto run = store::find_run(store, crash.run_id);
            entry.shrunk = shrink_recorded_run(settings, registry, store, *run, workflow, max_runs);
        }
        shrunk.push_back(std::move(entry));
    }
    return shrunk;
}

}  // namespace sbx::engine
