// A matrix's runs made by a Slurm job array (`--on slurm`). The runs are split into
// shards, one array task each; every task runs `sandbox-runner worker` with the host's
// settings, command and seed, and records its runs into a store of its own on the shared
// folder. When the array has ended, the shard stores are merged into the session; the
// runs of a task that was lost (cancelled, timed out, its node gone) are submitted again,
// up to `resubmits` times. SIGINT cancels the array, merges what finished and stops.
//
// The job folder (<shared_dir>/s<session>-<hash of the metrics.db path>):
//   job.json                   what a worker runs (the host's options and command)
//   worker.sh                  the array's batch script
//   attempt-A/tasks.json       each shard's runs: [[[cell, repetition], ...], ...]
//   attempt-A/job_id           the array's Slurm job id
//   attempt-A/shard-K/         shard K's data dir (its metrics.db; `done` when made,
//                              `refused` with the worker's reason when it would not)
//   attempt-A/task-K.log       its output
// It stays while the session may be recovered, and goes when the matrix ends.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "config/settings.hpp"
#include "engine/remote_runs.hpp"
#include "store/store.hpp"

namespace sbx::cluster {

// Written into a shard's data dir by a worker that refused its shard (exit 2): "node N:
// <why>". The host leaves that node out of later attempts, and stops when every task of an
// attempt refused (a refusal of every node repeats on resubmission).
inline constexpr const char kRefusedFile[] = "refused";

struct Refusal {
    int task = 0;
    std::string node;  // "" when the worker did not say
    std::string said;  // "node N: why"
};

// The job folder of `session` of the store at `db_path`.
std::filesystem::path job_folder(const config::Settings &settings,
                                 const std::filesystem::path &db_path, int64_t session);

class SlurmRuns : public engine::RemoteRuns {
  public:
    // `worker` is job.json's content (written when the folder has none yet): the program,
    // the working folder, the global options and the command words a worker runs.
    // `recover`: the folder of the interrupted session is kept; otherwise whatever is there
    // is an earlier session's and goes.
    SlurmRuns(const config::SlurmSettings &settings, store::Store &store, int64_t session,
              std::filesystem::path folder, const nlohmann::json &worker, bool recover);

    void catch_up() override;
    void plan(const std::string &digest) override { plan_digest_ = digest; }
    void run(const std::vector<engine::PlannedRun> &runs, engine::RunObserver *observer,
             const MissingRuns &missing) override;

    // The matrix ended: the job folder goes, and with `with_empty_parent` the folder
    // holding it when no other job folder is left (never a configured shared_dir).
    void remove_folder(bool with_empty_parent);

  private:
    int next_attempt() const;
    std::filesystem::path attempt_folder(int attempt) const;
    // Submits `runs` as attempt `attempt`; returns the job id.
    std::string submit(int attempt, const std::vector<engine::PlannedRun> &runs);
    // Whether a task of `job_id` is pending or running; a few failed queries are retried.
    bool still_active(const std::string &job_id);
    // The shards of `attempt` (its tasks.json).
    int shard_count(int attempt) const;
    // Until no task of `job_id` is pending or running. On SIGINT: scancel, merge, Cancelled.
    void wait_for(const std::string &job_id, int attempt, engine::RunObserver *observer);
    // Merges every shard store of `attempt`; returns the runs added.
    int merge_attempt(int attempt, engine::RunObserver *observer);
    // The tasks of `attempt` whose worker refused its shard.
    std::vector<Refusal> refusals(int attempt) const;
    // "task 3 CANCELLED: <last line of its log>" for each task that did not complete.
    std::string lost_tasks(const std::string &job_id, int attempt) const;

    config::SlurmSettings settings_;
    store::Store &store_;
    int64_t session_;
    std::filesystem::path folder_;
    std::string plan_digest_;  // written beside each attempt's tasks.json
    // Nodes whose worker refused a shard (a limit it cannot hold, a plugin it lacks): later
    // attempts go elsewhere (sbatch --exclude).
    std::set<std::string> refusing_nodes_;
};

}  // namespace sbx::cluster
