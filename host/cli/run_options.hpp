// The options of `run`, shared by its three modes: one workflow under each preset,
// workflow simulations (--all-workflows) and section simulations (--sections).
#pragma once

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_context.hpp"

namespace sbx::cli {

struct RunOptions {
    std::string workflow;
    int runs = 1;
    int64_t seed = -1;
    std::vector<std::string> preset_files;
    int preset_count = 3;
    unsigned workers = 0;  // 0: the settings' workers
    bool json = false;
    bool details = false;
    bool keep_workspaces = false;
    bool all_workflows = false;
    bool sections = false;
    double fail_under = -1;  // exit 1 when a cell's ROI is below this
    bool recover = false;
    std::string on;               // --on: "" (local) or "slurm"
    int64_t resumed_session = 0;  // --recover: the interrupted session this run finishes
};

// What a run session records of its options: what --recover needs to plan it again.
// Preset files are kept absolute: --recover may be run from another directory.
inline nlohmann::json recorded_run_options(const RunOptions &options) {
    std::vector<std::string> files;
    files.reserve(options.preset_files.size());
    for (const auto &file : options.preset_files) {
        files.push_back(std::filesystem::absolute(file).lexically_normal().string());
    }
    return {{"runs", options.runs},
            {"preset_count", options.preset_count},
            {"preset_files", files},
            {"on", options.on.empty() ? "local" : options.on}};
}

// The workers to use: --workers, else the settings' workers.
inline unsigned run_workers(const RunOptions &options, const config::Settings &settings) {
    return options.workers != 0 ? options.workers : std::max(1u, settings.workers);
}

int run_workflow_simulations(CliContext &context, RunOptions &options);
int run_section_simulations(CliContext &context, RunOptions &options);

}  // namespace sbx::cli
