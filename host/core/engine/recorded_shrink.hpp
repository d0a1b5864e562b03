// Shrinking a recorded failed run (engine/shrinker.hpp), every candidate a recorded run of
// one session `shrink RUN_ID`: what `shrink` prints, and what `run-scenarios` asks of a
// failure a polyglot found (which part of it mattered), with a smaller budget.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>

#include "config/settings.hpp"
#include "engine/shrinker.hpp"
#include "plugins/registry.hpp"
#include "store/run_lookup.hpp"
#include "store/store.hpp"

namespace sbx::engine {

struct RecordedShrink {
    ShrinkResult result;
    int64_t session = 0;
    int64_t minimal_run = 0;                  // runs.id of the smallest failing candidate
    std::optional<store::RecordedRun> first;  // the original's inputs run again
    // {slot: category} for each slot whose meta lists polyglot parts: the part its shrunk
    // value belongs to.
    nlohmann::json belongs_to = nlohmann::json::object();
};

// The same failure: the same step fails with the same status, the run ends in the same
// outcome class (a crash stays a crash, not a clean rejection with the same status), and a
// crash or hang has the same signature (engine/crash_signature.hpp: the same error words;
// not asked of other failures, whose stderr often quotes the input being shrunk).
bool fails_the_same_way(const store::RecordedRun &original, const store::RecordedRun &again);

// Shrinks `original` (a failed run of `workflow`) in a session of its own, spending at
// most `max_runs` runs.
RecordedShrink shrink_recorded_run(const config::Settings &settings, plugins::Registry &registry,
                                   store::Store &store, const store::RecordedRun &original,
                                   const config::Workflow &workflow, int max_runs);

}  // namespace sbx::engine
