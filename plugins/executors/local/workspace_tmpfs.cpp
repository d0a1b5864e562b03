// The tmpfs workspace: making it with the new mount API, and copying a shared workspace folder
// in before the run and back after it. Every copy goes through *at() calls on open folders
// with O_NOFOLLOW, so no symlink a target left can redirect it outside the two trees.
#include "workspace_tmpfs.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <functional>
#include <mutex>
#include <set>
#include <utility>
#include <vector>

#include "rootless_tmpfs.hpp"
#include "support/sys_error.hpp"
#include "support/workspace.hpp"

namespace sbx::local {
namespace {

// Copies of one run (CONCURRENCY_LEVEL) share its folder: one copies in or out at a time.
std::mutex &folder_mutex(const std::string &folder) {
    static std::mutex guard;
    static std::map<std::string, std::unique_ptr<std::mutex>> mutexes;
    const std::lock_guard<std::mutex> lock(guard);
    auto &entry = mutexes[folder];
    if (!entry) {
        entry = std::make_unique<std::mutex>();
    }
    return *entry;
}

UniqueFd open_folder_at(int parent, const std::string &name, const std::string &shown) {
    UniqueFd folder(
        ::openat(parent, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!folder.valid()) {
        support::throw_system_error("cannot open folder " + shown, errno);
    }
    return folder;
}

// The entries of an open folder, "." and ".." left out. A fresh open of "." so that the
// caller's descriptor keeps its own position.
std::vector<std::string> entry_names(int folder, const std::string &shown) {
    const int own = ::openat(folder, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *listing = own >= 0 ? ::fdopendir(own) : nullptr;
    if (listing == nullptr) {
        const int error = errno;
        if (own >= 0) {
            ::close(own);
        }
        support::throw_system_error("cannot list folder " + shown, error);
    }
    const std::unique_ptr<DIR, int (*)(DIR *)> owned(listing, ::closedir);
    std::vector<std::string> names;
    while (const dirent *entry = ::readdir(listing)) {
        const std::string name = entry->d_name;
        if (name != "." && name != "..") {
            names.push_back(name);
        }
    }
    return names;
}

// Removes `name` from `folder`, recursively when it is a folder; absent is fine.
void remove_entry(int folder, const std::string &name, const std::string &shown) {
    struct stat info {};
    if (::fstatat(folder, name.c_str(), &info, AT_SYMLINK_NOFOLLOW) != 0) {
        return;
    }
    if (S_ISDIR(info.st_mode)) {
        const UniqueFd inner = open_folder_at(folder, name, shown);
        for (const auto &child : entry_names(inner.get(), shown)) {
            remove_entry(inner.get(), child, support::path_in(shown, child));
        }
    }
    if (::unlinkat(folder, name.c_str(), S_ISDIR(info.st_mode) ? AT_REMOVEDIR : 0) != 0 &&
        errno != ENOENT) {
        support::throw_system_error("cannot remove " + shown, errno);
    }
}

void copy_data(int from, int to, const std::string &shown) {
    constexpr std::size_t kChunk = std::size_t{1} << 20;
    for (;;) {
        const ssize_t sent = ::sendfile(to, from, nullptr, kChunk);
        if (sent == 0) {
            return;
        }
        if (sent < 0 && errno != EINTR) {
            support::throw_system_error("cannot copy " + shown, errno);
        }
    }
}

void set_times(int folder, const std::string &name, const struct stat &info) {
    const timespec times[2] = {info.st_atim, info.st_mtim};
    (void)::utimensat(folder, name.c_str(), times, AT_SYMLINK_NOFOLLOW);
}

// Copies one entry of `from` to the same name in `to`, replacing what is there. Folders
// are made (or kept) but not descended into: the walk does that.
void copy_entry(int from, int to, const std::string &name, const struct stat &info,
                const std::string &shown) {
    struct stat existing {};
    const bool exists = ::fstatat(to, name.c_str(), &existing, AT_SYMLINK_NOFOLLOW) == 0;
    // A file or link is replaced, never written through: the old name may be a hard link.
    if (exists && (!S_ISDIR(info.st_mode) || !S_ISDIR(existing.st_mode))) {
        remove_entry(to, name, shown);
    }
    if (S_ISDIR(info.st_mode)) {
        // Writable by us until the walk has filled it; its own mode comes after (finish_folder).
        if (::mkdirat(to, name.c_str(), 0700) != 0 && errno != EEXIST) {
            support::throw_system_error("cannot create folder " + shown, errno);
        }
    } else if (S_ISREG(info.st_mode)) {
        const UniqueFd source(::openat(from, name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
        if (!source.valid()) {
            support::throw_system_error("cannot open " + shown, errno);
        }
        const UniqueFd target(
            ::openat(to, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
        if (!target.valid()) {
            support::throw_system_error("cannot create " + shown, errno);
        }
        copy_data(source.get(), target.get(), shown);
        (void)::fchmod(target.get(), info.st_mode & 07777);
    } else if (S_ISLNK(info.st_mode)) {
        char link[PATH_MAX];
        const ssize_t length = ::readlinkat(from, name.c_str(), link, sizeof(link) - 1);
        if (length < 0) {
            support::throw_system_error("cannot read symlink " + shown, errno);
        }
        link[length] = '\0';
        if (::symlinkat(link, to, name.c_str()) != 0) {
            support::throw_system_error("cannot create symlink " + shown, errno);
        }
    }
    if (!S_ISDIR(info.st_mode)) {
        set_times(to, name, info);
    }
}

// A copied folder's own mode and times, once the walk has filled it.
void finish_folder(int to, const std::string &name, const struct stat &info) {
    (void)::fchmodat(to, name.c_str(), info.st_mode & 07777, 0);
    set_times(to, name, info);
}

// Walks the tree of `from`, copying every entry `wanted` accepts into `to` and calling
// `copied` after each copy. Folders are always walked; sockets, fifos and devices skipped.
struct TreeCopy {
    std::function<bool(const std::string &relative, const struct stat &source)> wanted;
    std::function<void(const std::string &relative, int to, const std::string &name)> copied;

    void run(int from, int to, const std::string &prefix, const std::string &shown_to) const {
        for (const auto &name : entry_names(from, shown_to)) {
            const std::string relative = prefix.empty() ? name : support::path_in(prefix, name);
            const std::string shown = support::path_in(shown_to, name);
            struct stat info {};
            if (::fstatat(from, name.c_str(), &info, AT_SYMLINK_NOFOLLOW) != 0) {
                continue;  // gone meanwhile
            }
            if (!S_ISDIR(info.st_mode) && !S_ISREG(info.st_mode) && !S_ISLNK(info.st_mode)) {
                continue;
            }
            if (S_ISDIR(info.st_mode) || wanted(relative, info)) {
                copy_entry(from, to, name, info, shown);
                copied(relative, to, name);
            }
            if (S_ISDIR(info.st_mode)) {
                const UniqueFd inner_from = open_folder_at(from, name, shown);
                const UniqueFd inner_to = open_folder_at(to, name, shown);
                run(inner_from.get(), inner_to.get(), relative, shown);
                finish_folder(to, name, info);
            }
        }
    }
};

WorkspaceTmpfs::Stamp stamp_of(const struct stat &info) {
    return {info.st_mode, info.st_ino, info.st_ctim};
}

bool same(const WorkspaceTmpfs::Stamp &a, const WorkspaceTmpfs::Stamp &b) {
    return a.mode == b.mode && a.inode == b.inode && a.ctime.tv_sec == b.ctime.tv_sec &&
           a.ctime.tv_nsec == b.ctime.tv_nsec;
}

// Removes `relative` below `root` without following a symlink on the way.
void remove_relative(int root, const std::string &relative, const std::string &shown) {
    UniqueFd folder(::fcntl(root, F_DUPFD_CLOEXEC, 0));
    std::size_t start = 0;
    for (std::size_t slash = relative.find('/'); slash != std::string::npos;
         slash = relative.find('/', start)) {
        folder.reset(::openat(folder.get(), relative.substr(start, slash - start).c_str(),
                              O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
        if (!folder.valid()) {
            return;  // its folder is gone (removed first) or is no folder any more
        }
        start = slash + 1;
    }
    remove_entry(folder.get(), relative.substr(start), shown);
}

UniqueFd open_folder(const std::string &folder) {
    UniqueFd fd(::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!fd.valid()) {
        support::throw_system_error("cannot open workspace " + folder, errno);
    }
    return fd;
}

}  // namespace

std::unique_ptr<WorkspaceTmpfs> WorkspaceTmpfs::create(std::uint64_t size_bytes, std::string &why) {
    const std::string size = std::to_string(size_bytes);
    UniqueFd mount;
    const UniqueFd context(::fsopen("tmpfs", FSOPEN_CLOEXEC));
    if (!context.valid()) {
        if (errno != EPERM) {
            why = "fsopen tmpfs: " + support::errno_text(errno);
            return nullptr;
        }
        // No CAP_SYS_ADMIN: the same tmpfs, made in a user namespace of our own.
        mount = make_tmpfs_in_user_namespace(size, why);
        if (!mount.valid()) {
            why = "fsopen tmpfs: " + support::errno_text(EPERM) + "; " + why;
            return nullptr;
        }
    } else {
        if (::fsconfig(context.get(), FSCONFIG_SET_STRING, "size", size.c_str(), 0) != 0 ||
            ::fsconfig(context.get(), FSCONFIG_SET_STRING, "mode", "0700", 0) != 0 ||
            ::fsconfig(context.get(), FSCONFIG_CMD_CREATE, nullptr, nullptr, 0) != 0) {
            why = "create a tmpfs of " + size + " bytes: " + support::errno_text(errno);
            return nullptr;
        }
        mount.reset(
            ::fsmount(context.get(), FSMOUNT_CLOEXEC, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV));
        if (!mount.valid()) {
            why = "fsmount tmpfs: " + support::errno_text(errno);
            return nullptr;
        }
    }
    // The mount fd is an O_PATH handle; entries are read and written through a real one.
    UniqueFd root(::openat(mount.get(), ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!root.valid()) {
        why = "open the tmpfs: " + support::errno_text(errno);
        return nullptr;
    }
    return std::unique_ptr<WorkspaceTmpfs>(new WorkspaceTmpfs(std::move(mount), std::move(root)));
}

void WorkspaceTmpfs::copy_in(const std::string &folder) {
    const std::lock_guard<std::mutex> lock(folder_mutex(folder));
    const UniqueFd source = open_folder(folder);
    struct stat info {};
    if (::fstat(source.get(), &info) == 0) {
        (void)::fchmod(root_.get(), info.st_mode & 07777);
    }
    const TreeCopy copy{[](const std::string &, const struct stat &) { return true; },
                        [this](const std::string &relative, int to, const std::string &name) {
                            struct stat copied {};
                            if (::fstatat(to, name.c_str(), &copied, AT_SYMLINK_NOFOLLOW) == 0) {
                                copied_in_[relative] = stamp_of(copied);
                            }
                        }};
    try {
        copy.run(source.get(), root_.get(), "", folder);
    } catch (const Error &e) {
        throw Error(SBX_ERROR, std::string(e.what()) +
                                   " (copying the workspace into its tmpfs of limits.disk_bytes; "
                                   "a workspace that holds more than the disk limit cannot run)");
    }
}

void WorkspaceTmpfs::copy_out(const std::string &folder) const {
    const std::lock_guard<std::mutex> lock(folder_mutex(folder));
    const UniqueFd target = open_folder(folder);
    std::set<std::string> seen;
    const TreeCopy copy{
        [&](const std::string &relative, const struct stat &source) {
            seen.insert(relative);
            const auto before = copied_in_.find(relative);
            return before == copied_in_.end() || !same(before->second, stamp_of(source));
        },
        [&](const std::string &relative, int, const std::string &) { seen.insert(relative); }};
    copy.run(root_.get(), target.get(), "", folder);
    // Sorted, so a removed folder goes before its entries (which are then already gone).
    for (const auto &[relative, stamp] : copied_in_) {
        if (seen.count(relative) == 0) {
            remove_relative(target.get(), relative, support::path_in(folder, relative));
        }
    }
}

std::uint64_t WorkspaceTmpfs::used_bytes() const {
    struct statfs info {};
    if (::fstatfs(root_.get(), &info) != 0) {
        return 0;
    }
    return static_cast<std::uint64_t>(info.f_blocks - info.f_bfree) *
           static_cast<std::uint64_t>(info.f_bsize);
}

bool WorkspaceTmpfs::full() const {
    struct statfs info {};
    return ::fstatfs(root_.get(), &info) == 0 && info.f_bfree == 0;
}

}  // namespace sbx::local
