// Where the Slurm tasks of one node record what a crash would leave behind: a folder per
// node under the Slurm root, <root>/nodes/<node>/state. A state record's owner (a pid and
// its start time) can only be judged on the machine that wrote it, so every task on a node
// records there and sweeps there before it runs, and purge-stale run on the node does too.
#pragma once

#include <filesystem>
#include <string>

#include "config/settings.hpp"

namespace sbx::cluster {

// The folder holding the job folders: slurm.shared_dir, or <data_dir>/slurm.
std::filesystem::path slurm_root(const config::Settings &settings);

// This machine's name (its hostname), as Slurm knows the node.
std::string node_name();

// <root>/nodes/<this node>/state.
std::filesystem::path node_state_folder(const std::filesystem::path &root);

}  // namespace sbx::cluster
