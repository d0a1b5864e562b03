// `replay RUN_ID`: a recorded run made once more, in a session of its own, with its exact
// inputs, preset and fault seed, and whether it ended the same way. The CLI prints.
#pragma once

#include <cstdint>
#include <optional>

#include "config/settings.hpp"
#include "plugins/registry.hpp"
#include "presets/preset.hpp"
#include "store/run_lookup.hpp"
#include "store/store.hpp"

namespace sbx::engine {

struct Replayed {
    int64_t session = 0;                      // the replay's session
    std::optional<store::RecordedRun> again;  // the run made again; none when not recorded
    // It passed or failed as the original did, at the same step with the same status.
    bool reproduced = false;
};

// Runs `original` (a run of `workflow`, under `preset`) again in a new session of `store`.
Replayed replay_recorded_run(const config::Settings &settings, plugins::Registry &registry,
                             store::Store &store, const store::RecordedRun &original,
                             const config::Workflow &workflow, const presets::Preset &preset);

}  // namespace sbx::engine
