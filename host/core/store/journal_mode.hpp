// Which journal a database gets. WAL lets readers (dashboards, tests) run beside the writer,
// but its index lives in shared memory (the -shm file, mapped by every connection), which a
// network filesystem does not share between machines and 9p cannot map at all: SQLite's
// own documentation says WAL does not work over a network filesystem. There a rollback
// journal is used, whose locks the filesystem's lock protocol carries. This is what a
// Slurm worker's shard store on the cluster's shared folder needs, and a data dir in an
// NFS home alike.
#pragma once

#include <filesystem>
#include <istream>
#include <string>

namespace sbx::store {

// The filesystem holding `folder`, by name ("nfs", "9p", "cifs", "lustre", "fuse", ...)
// when it is a network or user-space one, "" when it is local (or cannot be told).
std::string network_filesystem(const std::filesystem::path &folder);

// The type of the mount that holds `path` (absolute and canonical) in a mount table in
// /proc/self/mountinfo's format ("ext4", "nfs4", "9p", "fuse.sshfs"); "" when none does.
std::string mount_type(const std::string &path, std::istream &mountinfo);

// Whether a mount type is a network filesystem's, or a user-space one's that is most often
// remote (fuse.sshfs; not fuse.fuse-overlayfs or fuse.lxcfs, which are local).
bool network_type(const std::string &type);

// "WAL" for a local filesystem, "DELETE" for a network one.
const char *journal_mode_for(const std::filesystem::path &folder);

}  // namespace sbx::store
