// What a Slurm array task makes right on its node before running its shard: the node is
// not the submitting host, and its environment (inherited through sbatch --export=ALL) and
// leftovers are its own.
#pragma once

#include "config/settings.hpp"
#include "plugins/registry.hpp"

namespace sbx::cluster {

// TMPDIR as the submitting host had it may name a folder this node lacks or cannot write
// (a login node's scratch): then it is dropped, so that workspaces and the per-user folder
// fall back to /tmp as they do on any machine without TMPDIR, and the log says so.
void drop_unusable_tmpdir();

// purge-stale of the node's state folder before the shard runs: what a task killed on this
// node (SIGKILL after KillWait, a crash) left is removed, its owners being dead.
void sweep_node_leftovers(const config::Settings &settings, plugins::Registry &registry);

}  // namespace sbx::cluster
