// `--on local|slurm` of the matrix commands (run-scenarios, simulate-temporal-trajectory):
// where their runs are made. Local is the worker threads of this host; slurm is a job
// array whose workers record into stores merged back here (cluster/slurm_runs.hpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cluster/slurm_runs.hpp"
#include "config/settings.hpp"
#include "engine/remote_runs.hpp"
#include "store/store.hpp"

namespace sbx::cluster {

// The digest of the settings file at `config_path` as it is now ("" for the embedded
// settings): job.json keeps the submitting host's, and a worker reading other settings
// refuses to run.
std::string settings_digest(const std::string &config_path);

// "local" or "slurm" from --on ("" = local); anything else is an InputError naming
// `command`.
std::string checked_placement(const std::string &command, const std::string &on);

// What a worker is started with to run as the submitting host does: its global options.
struct WorkerLaunch {
    std::string program_path;  // argv[0]: the program when /proc/self/exe cannot be read
    std::string config_path;   // --config as given ("" = the default lookup)
    std::vector<std::string> plugin_dirs;
    std::string log_level;
    bool json_logs = false;
};

class MatrixPlacement {
  public:
    // `on` as checked_placement returned it. For slurm: `args` are the command's words
    // as given, `seed` the seed it runs with; a worker runs the same command with the same
    // seed (see worker_words). Nothing is submitted yet.
    MatrixPlacement(const config::Settings &settings, const WorkerLaunch &launch,
                    const std::string &on, store::Store &store, int64_t session, bool recover,
                    const std::string &command, const std::vector<std::string> &args, int64_t seed);

    // What MatrixContext::remote takes: nullptr for local.
    engine::RemoteRuns *remote() { return slurm_ ? &*slurm_ : nullptr; }
    // The matrix ended (finished or failed, not interrupted): the job files go.
    void finished();

  private:
    std::optional<SlurmRuns> slurm_;
    bool own_root_ = false;  // the job folder is under <data_dir>/slurm, not a shared_dir
};

// The words a worker runs: `command`, then `args` without what only the submitting host
// does (--on, --recover, --report, --plot, --fail-on, --shrink-runs, --json, servers) and
// without --seed and --workers, then `--seed SEED --workers W`.
std::vector<std::string> worker_words(const std::string &command,
                                      const std::vector<std::string> &args, int64_t seed,
                                      int workers);

}  // namespace sbx::cluster
