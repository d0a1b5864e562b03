// The options of `run`, shared by its three modes: one workflow under each preset,
// workflow simulations (--all-workflows) and section simulations (--sections).
#pragma once

#include <string>
#include <vector>

#include "cli_context.hpp"
#include "engine/session_options.hpp"

namespace sbx::cli {

struct RunOptions {
    std::string workflow;
    // --runs, --preset-file, --preset-count and --on: what --recover takes back.
    engine::RunSessionOptions recorded;
    int64_t seed = -1;
    unsigned workers = 0;  // 0: the settings' workers
    bool json = false;
    bool details = false;
    bool keep_workspaces = false;
    bool all_workflows = false;
    bool sections = false;
    double fail_under = -1;  // exit 1 when a cell's ROI is below this
    bool recover = false;
    int64_t resumed_session = 0;  // --recover: the interrupted session this run finishes
};

int run_workflow_simulations(CliContext &context, RunOptions &options);
int run_section_simulations(CliContext &context, RunOptions &options);

}  // namespace sbx::cli
