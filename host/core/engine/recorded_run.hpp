// What the commands that run a recorded run again (replay, shrink) share: finding the run
// and its workflow, describing how it ended, and the cell that runs it once more with the
// same fault seed.
#pragma once

#include <filesystem>
#include <string>

#include "cli_context.hpp"
#include "engine/cell_runner.hpp"
#include "store/run_lookup.hpp"

namespace sbx::cli {

// <data dir>/metrics.db; InputError (exit 2) when it does not exist. `command` prefixes
// the message.
std::filesystem::path recorded_database(const config::Settings &settings,
                                        const std::string &command);

// The run `run_id` of `db`; InputError when there is none.
store::RecordedRun find_recorded_run(store::Store &store, const std::filesystem::path &db,
                                     const std::string &command, int64_t run_id);

// The run's workflow (the settings', else an imported one); InputError for the combined
// workflow of a simulation, which has no definition to run.
const config::Workflow &recorded_workflow(CliContext &context, const std::string &command,
                                          const store::RecordedRun &run);

// The status of the run's first failed step; "" when none failed.
std::string failed_status(const store::RecordedRun &run);

// "failed at step parse (SG)" or "passed".
std::string outcome_text(bool passed, const std::string &failed_step, const std::string &status);

// A cell of one slot at the run's own repetition, so run_one uses the original's fault
// seed: `inputs` under `preset`, with the run's flag and input meta.
engine::CellWork rerun_work(store::Store &store, const config::Workflow &workflow,
                            const presets::Preset &preset, const store::RecordedRun &run,
                            const nlohmann::json &inputs, const std::string &strategy);

}  // namespace sbx::cli
