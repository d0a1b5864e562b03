// Where the Slurm tasks of one node record what a crash would leave behind: a folder per
// user and node under the Slurm root, <root>/nodes-<uid>/<node>/state. A state record's
// owner (a pid and its start time) can only be judged on the machine that wrote it, so
// every task on a node records there and sweeps there before it runs, and purge-stale run
// on the node does too. Per user: the Slurm root is shared by everyone who submits there,
// and one user's records are neither writable nor removable by another.
#pragma once

#include <filesystem>
#include <string>

#include "config/settings.hpp"

namespace sbx::cluster {

// The folder holding the job folders: slurm.shared_dir, or <data_dir>/slurm.
std::filesystem::path slurm_root(const config::Settings &settings);

// This machine's name (its hostname; Slurm's node name is most often the same).
std::string node_name();

// The node as Slurm names it inside a job (SLURMD_NODENAME, which sbatch --exclude takes;
// it may differ from the hostname), else node_name().
std::string slurm_node_name();

// <root>/nodes-<uid>/<this node>/state for the caller's effective uid.
std::filesystem::path node_state_folder(const std::filesystem::path &root);

}  // namespace sbx::cluster
