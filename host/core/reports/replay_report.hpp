// What `replay RUN_ID` says: the recorded run and how it ended, its replay and whether it
// ended the same way (text and `--json`), or (`--print`) its steps as shell lines.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "config/settings.hpp"
#include "engine/recorded_replay.hpp"
#include "plugins/registry.hpp"
#include "presets/preset.hpp"
#include "store/run_lookup.hpp"

namespace sbx::reports {

// "run 42 (wf under preset, on): `ending`", the first line of `replay` and `shrink`.
std::string recorded_run_line(const store::RecordedRun &run, const std::string &ending);

// "failed at step parse (SG)" or "passed".
std::string run_outcome(const store::RecordedRun &run);

// {"run", "replay_run", "session", "original", "replay": {passed, failed_step, status},
//  "reproduced"}
nlohmann::json replay_json(const store::RecordedRun &original, const engine::Replayed &replayed);

// The original's line, the replay's, and "reproduced" or "NOT reproduced".
std::string replay_text(const store::RecordedRun &original, const engine::Replayed &replayed);

// `replay RUN_ID --print`: the steps of `original` (a run of `workflow` under `preset`) as
// shell lines, with the run's exact inputs, under a header that says what is left out.
std::string replay_reproducer(const config::Settings &settings, plugins::Registry &registry,
                              const store::RecordedRun &original, const config::Workflow &workflow,
                              const presets::Preset &preset);

}  // namespace sbx::reports
