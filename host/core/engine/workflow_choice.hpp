// Finding the workflow a command names: in the settings first, then among the workflows
// imported into metrics.db (`workflows import`), by name or numeric id.
#pragma once

#include <string>

#include "config/settings.hpp"
#include "store/run_lookup.hpp"

namespace sbx::engine {

// `command` prefixes error messages. An empty `name_or_id` picks the only workflow when
// the settings define exactly one. Workflows read from the database are appended to
// settings.workflows, so the returned reference (and a baseline it names) stays valid for
// as long as `settings` does. Throws InputError listing what is defined.
const config::Workflow &choose_workflow(config::Settings &settings, const std::string &command,
                                        const std::string &name_or_id);

// The workflow of a recorded run, to run it again (replay, shrink): the settings', else an
// imported one; InputError for the combined workflow of a simulation, which has none.
const config::Workflow &recorded_workflow(config::Settings &settings, const std::string &command,
                                          const store::RecordedRun &run);

}  // namespace sbx::engine
