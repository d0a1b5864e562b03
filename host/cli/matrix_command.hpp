// What the matrix commands (run, run-scenarios, simulate-temporal-trajectory) share:
// checking every plugin up front, and the engine context of a session.
#pragma once

#include <boost/program_options.hpp>
#include <string>
#include <vector>

#include "cli_context.hpp"
#include "engine/command_seed.hpp"
#include "engine/matrix_runner.hpp"
#include "engine/plugin_resolution.hpp"

namespace sbx::cli {

using engine::random_seed;
using engine::resolve_plugins_for;

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

// The workers to use: `workers` (--workers; 0: not given), else the settings' workers.
unsigned effective_workers(unsigned workers, const config::Settings &settings);

// The exit code of a CI gate (--fail-on, --fail-under): 0 when `failure` is empty, else 1
// with the failure on stderr.
int gate_exit(const std::string &failure);

// The engine context of a matrix of `session`: the settings' data dir's state folder,
// the working directory, and `observer` told of every run (nullptr: none).
// `remote` (--on slurm) makes the runs elsewhere; a worker's context makes its shard's.
engine::MatrixContext matrix_context(CliContext &context, store::Store &store, int64_t session,
                                     bool recover, engine::RunObserver *observer,
                                     engine::RemoteRuns *remote = nullptr);

}  // namespace sbx::cli
