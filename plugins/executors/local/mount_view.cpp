// Building the target's view of the filesystem inside the run's mount namespace.
//
// readonly, in the order that makes it work (as bubblewrap's --ro-bind / / with --tmpfs and
// --proc, but on the copy of the host's mounts the namespace already is, which costs no
// pivot_root and keeps every program and library where the target expects it):
//   1. every mount private, so that nothing propagates back to the host;
//   2. a writable clone of the workspace, and clones of the shown paths (read-only unless
//      marked), taken (open_tree) before anything turns read-only;
//   3. every mount read-only, recursively (mount_setattr changes only this namespace's copies);
//   4. new tmpfs mounts on /tmp and /dev/shm: writable, empty, the run's own;
//   5. the shown paths attached at their own place (what the step names under /tmp: a
//      script, its program's folder, a preload shim), then the workspace clone (made inside
//      the new /tmp when it lived there);
//   6. a /proc that shows the run's PID namespace, not the host's processes.
//
// minimal (as bubblewrap's --tmpfs / with --ro-bind for each path, --dev and --proc):
//   1. every mount private; clones taken of the workspace, of /dev and of each bind (made
//      read-only unless marked :rw) while the host's tree is still reachable;
//   2. a new root: a tmpfs over /tmp (just a place to build it), with its own tmpfs at tmp,
//      the workspace, the binds and /dev attached at their paths;
//   3. pivot_root into it, the host's tree detached for good;
//   4. /proc of the run, a tmpfs on /dev/shm, and the new root itself read-only.
#include "mount_view.hpp"

#include <fcntl.h>
#include <linux/limits.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <dirent.h>

#include <cerrno>

#include "launch_block.hpp"
#include "raw_syscall.hpp"

namespace sbx::local {
namespace {

// mkdir -p, for a workspace path that a new /tmp hid. Stops at the first real failure.
bool make_path(const char *path) {
    char buffer[PATH_MAX];
    std::size_t length = 0;
    while (path[length] != '\0') {
        if (length + 1 >= sizeof(buffer)) {
            errno = ENAMETOOLONG;
            return false;
        }
        buffer[length] = path[length];
        ++length;
    }
    buffer[length] = '\0';
    for (std::size_t i = 1; i <= length; ++i) {  // relative paths work too
        if (buffer[i] != '/' && buffer[i] != '\0') {
            continue;
        }
        const char saved = buffer[i];
        buffer[i] = '\0';
        if (::mkdir(buffer, 0700) != 0 && errno != EEXIST) {
            return false;
        }
        buffer[i] = saved;
    }
    return true;
}

// Makes `path` a place to attach a clone of `tree` at: a folder, or an empty file when the
// clone is of a file.
bool make_mount_point(int tree, const char *path) {
    struct stat info {};
    if (::stat(path, &info) == 0) {
        return true;  // there already (and maybe on a read-only mount, where nothing is made)
    }
    if (::fstat(tree, &info) != 0) {
        return false;
    }
    if (S_ISDIR(info.st_mode)) {
        return make_path(path);
    }
    char parent[PATH_MAX];
    std::size_t last_slash = 0;
    std::size_t length = 0;
    for (; path[length] != '\0' && length + 1 < sizeof(parent); ++length) {
        parent[length] = path[length];
        if (path[length] == '/') {
            last_slash = length;
        }
    }
    parent[last_slash] = '\0';
    if (last_slash > 0 && !make_path(parent)) {
        return false;
    }
    const int file = ::open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (file < 0) {
        return false;
    }
    ::close(file);
    return true;
}

// A descriptor of the workspace to attach: the tmpfs (a copy of its descriptor, closed by
// the caller like every tree), or a writable clone of the folder; -1 with errno set.
int clone_workspace(const MountView &view) {
    if (view.workspace_mount_fd >= 0) {
        return ::fcntl(view.workspace_mount_fd, F_DUPFD_CLOEXEC, 3);
    }
    return ::open_tree(AT_FDCWD, view.workdir, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
}

// A detached copy of `path` (and the mounts below it), read-only unless `writable`.
int clone_tree(const char *path, bool writable) {
    const int tree =
        ::open_tree(AT_FDCWD, path, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE);
    if (tree < 0 || writable) {
        return tree;
    }
    mount_attr read_only{};
    read_only.attr_set = MOUNT_ATTR_RDONLY;
    if (::mount_setattr(tree, "", AT_EMPTY_PATH | AT_RECURSIVE, &read_only, sizeof(read_only)) !=
        0) {
        const int saved = errno;
        ::close(tree);
        errno = saved;
        return -1;
    }
    return tree;
}

bool mount_private_tmpfs(const char *path) {
    if (::mount("tmpfs", path, "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777") == 0) {
        return true;
    }
    return errno == ENOENT;  // no /dev/shm on this system: nothing to hide
}

// Attaches `tree` (a detached mount) at `path`, making the path first when it is missing.
bool attach(int tree, const char *path) {
    if (::move_mount(tree, "", AT_FDCWD, path, MOVE_MOUNT_F_EMPTY_PATH) == 0) {
        return true;
    }
    if (errno != ENOENT || !make_path(path)) {
        return false;
    }
    return ::move_mount(tree, "", AT_FDCWD, path, MOVE_MOUNT_F_EMPTY_PATH) == 0;
}

bool fail(int &failed_step, int step) {
    failed_step = step;
    return false;
}

// Closes every descriptor in `fds` that is open; keeps errno.
void close_all(const int *fds, std::size_t count) {
    const int saved = errno;
    for (std::size_t i = 0; i < count; ++i) {
        if (fds[i] >= 0) {
            ::close(fds[i]);
        }
    }
    errno = saved;
}

bool build_readonly(const MountView &view, int &failed_step) {
    // [0] the workspace, [1..] the shown paths, all taken before anything turns read-only.
    int trees[1 + support::kMaxBinds];
    const std::size_t count = 1 + view.shown_count;
    for (std::size_t i = 0; i < count; ++i) {
        trees[i] = -1;
    }
    trees[0] = clone_workspace(view);
    bool built = trees[0] >= 0;
    for (std::size_t i = 0; built && i < view.shown_count; ++i) {
        trees[1 + i] = clone_tree(view.shown_paths[i], view.shown_writable[i] != 0);
        built = trees[1 + i] >= 0;
    }
    mount_attr read_only{};
    read_only.attr_set = MOUNT_ATTR_RDONLY;
    built = built &&
            ::mount_setattr(AT_FDCWD, "/", AT_RECURSIVE, &read_only, sizeof(read_only)) == 0 &&
            mount_private_tmpfs("/tmp") && mount_private_tmpfs("/dev/shm");
    for (std::size_t i = 0; built && i < view.shown_count; ++i) {
        built = make_mount_point(trees[1 + i], view.shown_paths[i]) &&
                ::move_mount(trees[1 + i], "", AT_FDCWD, view.shown_paths[i],
                             MOVE_MOUNT_F_EMPTY_PATH) == 0;
    }
    if (!built) {
        failed_step = kFilesystemView;
    } else if (!attach(trees[0], view.workdir)) {
        built = false;
        failed_step = kMountWorkspace;
    }
    close_all(trees, count);
    return built;
}

// Steps 2-4 of `minimal`, with the clones already taken: trees[0] the workspace, trees[1]
// /dev, trees[2..] the binds. Relative paths: the new root is the working directory.
bool build_new_root(const MountView &view, const int *trees, int &failed_step) {
    failed_step = kFilesystemView;
    if (::mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755") != 0 ||
        ::chdir("/tmp") != 0 || ::mkdir("tmp", 01777) != 0 ||
        ::mount("tmpfs", "tmp", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777") != 0 ||
        ::mkdir("proc", 0555) != 0 || ::mkdir("dev", 0755) != 0 ||
        ::move_mount(trees[1], "", AT_FDCWD, "dev", MOVE_MOUNT_F_EMPTY_PATH) != 0) {
        return false;
    }
    for (std::size_t i = 0; i < view.bind_count; ++i) {
        const char *relative = view.bind_paths[i] + 1;
        if (!make_mount_point(trees[2 + i], relative) ||
            ::move_mount(trees[2 + i], "", AT_FDCWD, relative, MOVE_MOUNT_F_EMPTY_PATH) != 0) {
            return false;
        }
    }
    failed_step = kMountWorkspace;
    const char *workspace = view.workdir + 1;
    if (!make_path(workspace) ||
        ::move_mount(trees[0], "", AT_FDCWD, workspace, MOVE_MOUNT_F_EMPTY_PATH) != 0) {
        return false;
    }
    failed_step = kFilesystemView;
    // pivot_root(".", "."): the old root ends up stacked on the new one, and is detached.
    if (::syscall(SYS_pivot_root, ".", ".") != 0 || ::umount2(".", MNT_DETACH) != 0 ||
        ::chdir("/") != 0) {
        return false;
    }
    if (view.fresh_proc) {
        (void)::mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr);
    }
    mount_attr read_only{};
    read_only.attr_set = MOUNT_ATTR_RDONLY;
    return mount_private_tmpfs("/dev/shm") &&
           ::mount_setattr(AT_FDCWD, "/", 0, &read_only, sizeof(read_only)) == 0;
}

bool build_minimal(const MountView &view, int &failed_step) {
    int trees[2 + support::kMaxBinds];
    const std::size_t count = 2 + view.bind_count;
    for (std::size_t i = 0; i < count; ++i) {
        trees[i] = -1;
    }
    trees[0] = clone_workspace(view);
    bool taken = trees[0] >= 0;
    if (taken) {
        trees[1] = clone_tree("/dev", false);
        taken = trees[1] >= 0;
    }
    for (std::size_t i = 0; taken && i < view.bind_count; ++i) {
        trees[2 + i] = clone_tree(view.bind_paths[i], view.bind_writable[i] != 0);
        taken = trees[2 + i] >= 0;
    }
    const bool built =
        taken ? build_new_root(view, trees, failed_step) : (failed_step = kFilesystemView, false);
    close_all(trees, count);
    return built;
}

// Replaces the tmpfs at `path` with a new empty one; nothing to do where there is none (a
// system without /dev/shm).
bool renew_tmpfs(const char *path) {
    if (::umount2(path, MNT_DETACH) != 0) {
        return errno == EINVAL || errno == ENOENT;
    }
    return mount_private_tmpfs(path);
}

// True when `name` is one of the '/'-separated names of `names`.
SBX_BESIDE_THE_HOST bool listed(const char *name, const char *names) {
    while (*names != '\0') {
        std::size_t i = 0;
        while (name[i] != '\0' && names[i] == name[i]) {
            ++i;
        }
        if (name[i] == '\0' && (names[i] == '/' || names[i] == '\0')) {
            return true;
        }
        while (*names != '\0' && *names != '/') {
            ++names;
        }
        if (*names == '/') {
            ++names;
        }
    }
    return false;
}

SBX_BESIDE_THE_HOST std::size_t count_names(const char *names) {
    if (*names == '\0') {
        return 0;
    }
    std::size_t count = 1;
    for (; *names != '\0'; ++names) {
        count += *names == '/' ? 1 : 0;
    }
    return count;
}

// True when the open folder holds exactly the names listed. Raw system calls only.
SBX_BESIDE_THE_HOST bool holds_just(int folder, const char *names) {
    alignas(8) char buffer[4096] = {};  // written by the kernel, which the analyzer cannot see
    std::size_t seen = 0;
    const std::size_t expected = count_names(names);
    for (;;) {
        const long got =
            raw_syscall(SYS_getdents64, folder, reinterpret_cast<long>(buffer), sizeof(buffer));
        if (got < 0) {
            return false;
        }
        if (got == 0) {
            return seen == expected;
        }
        for (long offset = 0; offset < got;) {
            const auto *entry = reinterpret_cast<const dirent64 *>(buffer + offset);
            offset += entry->d_reclen;
            const char *name = entry->d_name;
            if (name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'))) {
                continue;
            }
            if (!listed(name, names) || ++seen > expected) {
                return false;
            }
        }
    }
}

}  // namespace

SBX_BESIDE_THE_HOST bool scratch_is_clean(const ScratchPlan &plan, struct stat *attributes,
                                          bool record) {
    if (!plan.checkable) {
        return false;
    }
    for (std::size_t i = 0; i < plan.folder_count; ++i) {
        const auto folder = static_cast<int>(raw_syscall(SYS_openat, AT_FDCWD,
                                                         reinterpret_cast<long>(plan.folders[i]),
                                                         O_RDONLY | O_DIRECTORY | O_CLOEXEC));
        if (folder < 0) {
            if (folder == -ENOENT) {
                continue;
            }
            return false;
        }
        struct stat now {};
        bool clean = raw_syscall(SYS_fstat, folder, reinterpret_cast<long>(&now)) == 0 &&
                     holds_just(folder, plan.fresh_names[i]);
        if (clean && record) {
            attributes[i] = now;
        } else if (clean) {
            const struct stat &then = attributes[i];
            clean = now.st_ino == then.st_ino && now.st_mode == then.st_mode &&
                    now.st_uid == then.st_uid && now.st_gid == then.st_gid;
        }
        (void)raw_syscall(SYS_close, folder);
        if (!clean) {
            return false;
        }
    }
    return true;
}

bool renew_scratch(const ScratchPlan &plan) {
    int trees[1 + 2 * support::kMaxBinds];
    for (std::size_t i = 0; i < plan.kept_count; ++i) {
        trees[i] = -1;
    }
    // Clones first, while the mounts are still reachable; they keep their read-only flags.
    bool renewed = true;
    for (std::size_t i = 0; renewed && i < plan.kept_count; ++i) {
        trees[i] =
            ::open_tree(AT_FDCWD, plan.kept[i], OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE);
        renewed = trees[i] >= 0;
    }
    renewed = renewed && renew_tmpfs("/tmp") && renew_tmpfs("/dev/shm");
    for (std::size_t i = 0; renewed && i < plan.kept_count; ++i) {
        renewed = make_mount_point(trees[i], plan.kept[i]) &&
                  ::move_mount(trees[i], "", AT_FDCWD, plan.kept[i], MOVE_MOUNT_F_EMPTY_PATH) == 0;
    }
    close_all(trees, plan.kept_count);
    return renewed;
}

bool needs_mount_namespace(const MountView &view) {
    return view.mode != support::FilesystemMode::kHost || view.workspace_mount_fd >= 0;
}

bool build_mount_view(const MountView &view, int &failed_step) {
    // Our mount namespace is a copy of the host's: unshare propagation first, or the mounts
    // below would appear in the host's namespace wherever / is shared.
    if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) {
        return fail(failed_step, kPrivateMounts);
    }
    if (view.mode == support::FilesystemMode::kMinimal) {
        return build_minimal(view, failed_step);  // its own /proc, inside the new root
    }
    if (view.mode == support::FilesystemMode::kReadonly) {
        if (!build_readonly(view, failed_step)) {
            return false;
        }
    } else if (view.workspace_mount_fd >= 0 && !attach(view.workspace_mount_fd, view.workdir)) {
        return fail(failed_step, kMountWorkspace);
    }
    // A /proc of the run's PID namespace: the target sees its own processes only. Where the
    // kernel refuses (a /proc with hidden parts, as in some containers), the old one stays.
    if (view.fresh_proc) {
        (void)::mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr);
    }
    return true;
}

}  // namespace sbx::local
