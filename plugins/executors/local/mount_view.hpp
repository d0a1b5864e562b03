// What the target sees of the filesystem: the host's tree as it is (`host`); read-only
// with only its workspace, a private /tmp and /dev/shm writable and a /proc of its own PID
// namespace (`readonly`); or nothing of the host but the listed binds and /dev (`minimal`). Built
// by the run's init in the run's own mount namespace, so the host never sees a mount of it and
// everything goes with the run's last process.
#pragma once

#include <cstddef>

#include "support/filesystem_mode.hpp"

namespace sbx::local {

// Prepared by the host; read by the init, which may not allocate.
struct MountView {
    support::FilesystemMode mode = support::FilesystemMode::kHost;
    const char *workdir = nullptr;  // the workspace folder (absolute)
    // A detached tmpfs (fsmount) to attach over workdir, or -1 to keep the folder.
    int workspace_mount_fd = -1;
    // `readonly`: host paths attached at their own place once /tmp and /dev/shm are private
    // (what the step needs there, or needs writable: shown_paths.hpp), parents first, at
    // most kMaxBinds; read-only unless marked.
    const char *const *shown_paths = nullptr;
    const char *shown_writable = nullptr;  // 1: writable, 0: read-only
    std::size_t shown_count = 0;
    // Mount a /proc of the run's PID namespace (only where the init is its PID 1).
    bool fresh_proc = false;
    // `minimal`: the host paths shown (at most kMaxBinds), read-only unless marked.
    const char *const *bind_paths = nullptr;
    const char *bind_writable = nullptr;  // 1: writable (":rw"), 0: read-only
    std::size_t bind_count = 0;
};

// True when the view needs a mount namespace of the run's own.
bool needs_mount_namespace(const MountView &view);

// In the init, in a fresh mount namespace: builds the view. Raw system calls only. Returns
// false with errno set and `failed_step` naming the step (a ChildStep).
bool build_mount_view(const MountView &view, int &failed_step);

}  // namespace sbx::local
