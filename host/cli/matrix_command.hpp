// What the matrix commands (run, run-scenarios, simulate-temporal-trajectory) share:
// checking every plugin up front, and the engine context of a session.
#pragma once

#include <boost/program_options.hpp>
#include <string>
#include <vector>

#include "cli_context.hpp"
#include "engine/matrix_runner.hpp"

namespace sbx::cli {

// The options every matrix command takes.
struct MatrixOptions {
    int repetitions = 1;
    int64_t seed = -1;     // -1: not given (a random seed is drawn)
    unsigned workers = 0;  // 0: not given (the settings' workers)
    bool json = false;
    bool keep_workspaces = false;
    std::string on;  // --on: "local" or "slurm" (checked), "" when not given
};

// Parses `args` with `description` (to which the MatrixOptions are added) and the
// positional names; checks the ranges. `command` prefixes every InputError. Prefixes of
// option names are not guessed (`--rep` is an error, not `--repetitions`).
boost::program_options::variables_map parse_matrix_command(
    const std::string &command, const std::vector<std::string> &args,
    boost::program_options::options_description &description,
    const boost::program_options::positional_options_description &positional,
    MatrixOptions &options);

// The workers to use: the option, else the settings.
unsigned effective_workers(const MatrixOptions &options, const config::Settings &settings);

// Resolves the executor of each workflow and the stub strategy each preset asks for, so
// a typo is exit 2 before anything is recorded.
void resolve_plugins_for(engine::PluginSet &plugins,
                         const std::vector<const config::Workflow *> &workflows,
                         const std::vector<presets::Preset> &presets);

// The engine context of a matrix of `session`: the settings' data dir's state folder,
// the working directory, and `observer` told of every run (nullptr: none).
// `remote` (--on slurm) makes the runs elsewhere; a worker's context makes its shard's.
engine::MatrixContext matrix_context(CliContext &context, store::Store &store, int64_t session,
                                     bool recover, engine::RunObserver *observer,
                                     engine::RemoteRuns *remote = nullptr);

// A random seed for commands run without --seed (recorded with the session).
int64_t random_seed();

}  // namespace sbx::cli
