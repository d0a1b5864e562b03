// The workflow a command names, looked up in its context's settings and database
// (engine/workflow_choice).
#pragma once

#include <string>

#include "cli_context.hpp"
#include "engine/workflow_choice.hpp"

namespace sbx::cli {

inline const config::Workflow &choose_workflow(CliContext &context, const std::string &command,
                                               const std::string &name_or_id) {
    return engine::choose_workflow(context.settings, command, name_or_id);
}

inline const config::Workflow &recorded_workflow(CliContext &context, const std::string &command,
                                                 const store::RecordedRun &run) {
    return engine::recorded_workflow(context.settings, command, run);
}

}  // namespace sbx::cli
