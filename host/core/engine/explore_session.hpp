// `explore WORKFLOW`: a session that explores one input slot (engine/explorer) and then
// shrinks each distinct crash it found, each a recorded run. The CLI keeps the corpus file
// and prints.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "config/settings.hpp"
#include "engine/explorer.hpp"
#include "engine/recorded_shrink.hpp"
#include "plugins/registry.hpp"
#include "presets/preset.hpp"
#include "store/store.hpp"

namespace sbx::engine {

struct ExploreSession {
    std::unique_ptr<store::Store> store;  // the settings' metrics.db, the session's
    int64_t session = 0;
    ExploreOutcome outcome;
};

// Checks the plugins and programs up front (before metrics.db is opened, so a refusal
// creates nothing), then explores in a new session, telling `observer` (nullptr: none) of
// every run.
ExploreSession explore_in_session(const config::Settings &settings, plugins::Registry &registry,
                                  const config::Workflow &workflow, const presets::Preset &preset,
                                  const ExploreSettings &explore, RunObserver *observer);

struct ShrunkCrash {
    ExploreCrash crash;
    std::optional<RecordedShrink> shrunk;  // none when not shrunk (a budget of 0)
};

// Each crash shrunk in a session of its own, spending at most `max_runs` runs on each;
// none shrunk when `max_runs` is 0.
std::vector<ShrunkCrash> shrink_crashes(const config::Settings &settings,
                                        plugins::Registry &registry, store::Store &store,
                                        const config::Workflow &workflow,
                                        const std::vector<ExploreCrash> &crashes, int max_runs);

}  // namespace sbx::engine
