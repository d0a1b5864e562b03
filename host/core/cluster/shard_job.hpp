// The worker side of `--on slurm` (`run-shard`): the job folder the submitting host wrote,
// read for one array task (its shard's runs, its data dir), and what the task leaves there
// for the host to read (`done`, or `refused` with the reason).
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "engine/remote_runs.hpp"

namespace sbx::cluster {

struct ShardJob {
    std::filesystem::path folder;    // the job folder, absolute: its parent is the Slurm root
    nlohmann::json manifest;         // job.json: the host's options and command words
    int shard = 0;                   // K of --shard K/N
    int shards = 0;                  // N
    std::filesystem::path data_dir;  // attempt-A/shard-K: where this shard records
    engine::ShardAssignment assignment;
};

// Reads the job folder `job` for `attempt` and `shard_text` ("K/N", 0 <= K < N), and removes
// a refusal a requeued task left before. InputError when the folder, job.json or
// tasks.json cannot be read or tasks.json does not hold N shards.
ShardJob read_shard_job(const std::string &job, int attempt, const std::string &shard_text);

// The settings file job.json names ("" for the default lookup); InputError when it changed
// since the matrix was submitted.
std::string submitted_settings_file(const nlohmann::json &manifest);

// Writes `refused` ("node N: <reason>") into the shard's data dir: the host leaves the node
// out of later attempts. Throws when it cannot be written.
void record_refusal(const ShardJob &job, const std::string &reason);

// Writes `done` (what the matrix said when the shard's runs were made).
void record_shard_done(const ShardJob &job, const std::string &what);

}  // namespace sbx::cluster
