// What the target sees of the filesystem: the host's tree as it is (`host`); read-only
// with only its workspace, a private /tmp and /dev/shm writable and a /proc of its own PID
// namespace (`readonly`); or nothing of the host but the listed binds and /dev (`minimal`). Built
// by the run's init in the run's own mount namespace, so the host never sees a mount of it and
// everything goes with the run's last process.
#pragma once

#include <sys/stat.h>

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

// What a warm sandbox (warm_sandbox.hpp) renews before each run of a view that has a
// private /tmp: empty tmpfs on /tmp and /dev/shm, with the mounts the view placed under them
// (the workspace, shown paths, binds) attached again at their place.
struct ScratchPlan {
    // Those mount points, parents before children, without the ones inside another (a
    // recursive clone of the outer one brings them). At most 1 + 2 * kMaxBinds.
    const char *const *kept = nullptr;
    std::size_t kept_count = 0;
    // The folders of the fresh /tmp and /dev/shm (their roots, and the folders leading to
    // the kept mount points) with the names each holds when fresh, '/'-separated. A run that
    // left them so changed nothing there, and the next run keeps them: a new tmpfs costs an
    // unmount, which waits for the kernel's RCU grace period (~0.17 ms here).
    const char *const *folders = nullptr;
    const char *const *fresh_names = nullptr;
    std::size_t folder_count = 0;
    bool checkable = true;  // false: too many folders to check; never clean
};

// True when the view needs a mount namespace of the run's own.
bool needs_mount_namespace(const MountView &view);

// In the init, in a fresh mount namespace: builds the view. Raw system calls only. Returns
// false with errno set and `failed_step` naming the step (a ChildStep).
bool build_mount_view(const MountView &view, int &failed_step);

// True when every folder of the plan holds just its fresh names, with the mode and owner it
// had (kept mount points are the only entries of a fresh /tmp or /dev/shm, so whatever a
// run wrote there shows as a name). `attributes` has one stat per folder: filled when
// `record`, compared otherwise. A folder that does not exist is clean. Raw system calls
// only: the warm sandbox's zygote checks while the host goes on.
bool scratch_is_clean(const ScratchPlan &plan, struct stat *attributes, bool record);

// In the warm sandbox's mount namespace, with the view built: new /tmp and /dev/shm, the
// kept mounts attached again. Returns false with errno set (the sandbox is then unusable).
bool renew_scratch(const ScratchPlan &plan);

}  // namespace sbx::local
