// The user namespace of a run without root: the caller's uid and gid mapped to themselves,
// so that the target keeps its identity while the run gets PID and mount namespaces that
// only CAP_SYS_ADMIN could make otherwise.
#pragma once

#include <sys/types.h>

namespace sbx::support {

// The map lines, formatted by the host: the init may not format or allocate.
struct IdMapText {
    char uid_map[48] = {};
    char gid_map[48] = {};
};

// "<uid> <uid> 1\n" for the calling process's effective ids, formatted once.
const IdMapText &caller_id_maps();

// In the init, right after clone(CLONE_NEWUSER): denies setgroups (required before an
// unprivileged gid_map) and writes both maps through /proc/self. Raw system calls only.
// Returns false with errno set.
bool write_id_maps(const IdMapText &maps);

}  // namespace sbx::support
