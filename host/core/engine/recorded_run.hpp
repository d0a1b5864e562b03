// What the commands that run a recorded run again (replay, shrink, explore) share: finding the run
// and checking its workflow, describing how it ended, and the cell that runs it once more with the
// same fault seed.
#pragma once

#include <filesystem>
#include <string>

#include "config/settings.hpp"
#include "engine/cell_work.hpp"
#include "store/run_lookup.hpp"

namespace sbx::engine {

// <data dir>/metrics.db; InputError (exit 2) when it does not exist. `command` prefixes
// the message.
std::filesystem::path recorded_database(const config::Settings &settings,
                                        const std::string &command);

// The run `run_id` of `db`; InputError when there is none.
store::RecordedRun find_recorded_run(store::Store &store, const std::filesystem::path &db,
                                     const std::string &command, int64_t run_id);

// InputError when the run is of the combined workflow of a simulation, which has no
// definition to run (a workflow neither in `settings` nor imported, named all_...).
void check_rerunnable(const config::Settings &settings, const std::string &command,
                      const store::RecordedRun &run);

// The status of the run's first failed step; "" when none failed.
std::string failed_status(const store::RecordedRun &run);

// "failed at step parse (SG)" or "passed".
std::string outcome_text(bool passed, const std::string &failed_step, const std::string &status);

// A cell of one slot at the run's own repetition, so run_one uses the original's fault
// seed: `inputs` under `preset`, with the run's flag and input meta.
CellWork rerun_work(store::Store &store, const config::Workflow &workflow,
                    const presets::Preset &preset, const store::RecordedRun &run,
                    const nlohmann::json &inputs, const std::string &strategy);

}  // namespace sbx::engine
