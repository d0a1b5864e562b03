// What every command starts from: the global options, the effective settings (embedded
// default or file, then SANDBOX_* variables, then flags) and the plugin registry.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "config/settings.hpp"
#include "config/settings_flags.hpp"
#include "engine/remote_runs.hpp"
#include "plugins/registry.hpp"

namespace sbx::cli {

// The settings' flags (config/settings_flags), and what the CLI alone uses.
struct GlobalOptions : config::SettingsFlags {
    std::string program_path;  // argv[0], to find the plugins built beside the binary
    // The command was given --json: its stdout is for programs, so no progress line.
    bool json_output = false;
};

struct CliContext {
    GlobalOptions options;
    config::Settings settings;
    // `worker`: the runs of the shard this process makes (nullptr: not a worker).
    const engine::ShardAssignment *shard = nullptr;
    // Scans the plugin directories on first use.
    plugins::Registry &registry();

  private:
    std::unique_ptr<plugins::Registry> registry_;
};

// Loads settings and applies overrides; sets up logging. Throws InputError.
CliContext make_context(const GlobalOptions &options);

// Commands. `args` are the words after the command name. Each returns the exit code.
int run_plugins_command(CliContext &context, const std::vector<std::string> &args);
int run_run_command(CliContext &context, const std::vector<std::string> &args);
int run_presets_command(CliContext &context, const std::vector<std::string> &args);
int run_run_scenarios_command(CliContext &context, const std::vector<std::string> &args);
// `which` is rank-scenarios, rank-synergy or rank-scenario-synergy.
int run_rank_command(CliContext &context, const std::string &which,
                     const std::vector<std::string> &args);
int run_trajectory_command(CliContext &context, const std::vector<std::string> &args);
int run_workflows_command(CliContext &context, const std::vector<std::string> &args);
int run_replay_command(CliContext &context, const std::vector<std::string> &args);
int run_shrink_command(CliContext &context, const std::vector<std::string> &args);
int run_explore_command(CliContext &context, const std::vector<std::string> &args);
int run_autopurge_command(CliContext &context, const std::vector<std::string> &args);
// `command` is purge-stale, cleanup (the same) or check-resources (list only).
int run_cleanup_command(CliContext &context, const std::string &command,
                        const std::vector<std::string> &args);
int run_cleanup_stats_command(CliContext &context, const std::vector<std::string> &args);
int run_reliability_command(CliContext &context, const std::vector<std::string> &args);
int run_adapt_presets_command(CliContext &context, const std::vector<std::string> &args);
int run_find_boundaries_command(CliContext &context, const std::vector<std::string> &args);
// `command` is run-autonomous or run-complete.
int run_autonomous_command(CliContext &context, const std::string &command,
                           const std::vector<std::string> &args);
int run_synergy_metrics_command(CliContext &context, const std::vector<std::string> &args);
int run_report_command(CliContext &context, const std::vector<std::string> &args);
int run_dashboard_command(CliContext &context, const std::vector<std::string> &args);
// One array task of a matrix submitted with --on slurm (a context without settings).
int run_worker_command(CliContext &bare, const std::string &command,
                       const std::vector<std::string> &args);
// help and completions read no settings (Command::needs_settings is false).
int run_help_command(CliContext &context, const std::string &command,
                     const std::vector<std::string> &args);
int run_completions_command(CliContext &context, const std::string &command,
                            const std::vector<std::string> &args);

}  // namespace sbx::cli
