// Slurm through its own commands (sbatch, squeue, sacct, scancel): the scheduling stays
// Slurm's. Each call has a deadline, and a command that fails names itself and what it
// printed.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "config/settings.hpp"

namespace sbx::cluster {

// The comment every job of this project carries: "sandbox-runner <host> <pid> <start>",
// so purge-stale can tell a job whose submitting host died from one still watched.
inline constexpr const char kJobCommentPrefix[] = "sandbox-runner ";
// Job names start with it: "sbx-<session>-<attempt>".
inline constexpr const char kJobNamePrefix[] = "sbx-";

struct ArrayRequest {
    std::string job_name;
    std::string comment;
    std::string script;                    // the batch script's path
    std::vector<std::string> script_args;  // sbatch passes them to the script
    std::string output;                    // sbatch --output pattern (%a: the array index)
    std::string working_dir;               // sbatch --chdir
    int tasks = 1;                         // --array=0-(tasks-1)
    std::set<std::string> exclude_nodes;   // --exclude: nodes that refused a shard
};

// Submits the array; returns its job id. Throws EnvironmentError naming sbatch and what it
// said (an unknown partition, say).
std::string submit_array(const config::SlurmSettings &settings, const ArrayRequest &request);

// The array's tasks that are still pending or running, by index.
std::map<int, std::string> active_tasks(const std::string &job_id);

// How each task that ended ended (COMPLETED, CANCELLED, TIMEOUT, NODE_FAIL, FAILED, ...),
// from sacct when the cluster keeps accounting, else from what squeue still remembers
// (MinJobAge). A task no one remembers is absent.
std::map<int, std::string> ended_tasks(const std::string &job_id);

// scancel of the whole array (its pending and running tasks); never throws.
void cancel_job(const std::string &job_id);

struct ProjectJob {
    std::string job_id;  // the array's id, or a task's "<id>_<index>"
    std::string name;
    std::string state;
    std::string comment;
};

// Every pending or running job of this project (by name and comment) that the user may
// see; empty when Slurm is not installed or does not answer.
std::vector<ProjectJob> project_jobs();

// True when sbatch is in PATH (the cluster's client commands are installed).
bool slurm_installed();

}  // namespace sbx::cluster
