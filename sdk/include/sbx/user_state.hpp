// Where a host and its plugins keep one user's runtime state (run workspaces, state files),
// and the checks that keep that folder the user's alone. Header-only like plugin.hpp: the
// standard library and POSIX, no exceptions (plugins built with -fno-exceptions use it too).
//
// The folder, first match wins:
//   $TMPDIR/sandbox-runner-<uid>     TMPDIR set (absolute): the user's explicit choice, e.g.
//                                    a tmpfs, and how test suites keep to their own folder;
//   $XDG_RUNTIME_DIR/sandbox-runner  XDG_RUNTIME_DIR a real folder of the caller's, closed
//                                    to others (systemd's per-user tmpfs, /run/user/<uid>);
//   /tmp/sandbox-runner-<uid>        otherwise.
// Rationale: one fixed /tmp/sandbox-runner let the first user's runs lock every other user
// out, and a predictable path in a shared folder invites squatting and symlink tricks. The
// uid in the name lets users share a TMPDIR such as /tmp; the checks below refuse a folder
// someone else planted there.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace sbx::user_state {

// The per-user folder for `uid`, from the values of TMPDIR and XDG_RUNTIME_DIR (nullptr when
// unset). Creates nothing. Empty and relative values are ignored (a relative one would move
// with the working directory).
inline std::string locate(const char *tmpdir, const char *runtime_dir, uid_t uid) {
    const std::string own_name = "sandbox-runner-" + std::to_string(uid);
    if (tmpdir != nullptr && tmpdir[0] == '/') {
        std::string base(tmpdir);
        while (base.size() > 1 && base.back() == '/') {
            base.pop_back();
        }
        return (base == "/" ? "" : base) + "/" + own_name;
    }
    struct stat info {};
    // lstat: a runtime dir inherited from another user (su, sudo -E) or a link is not ours;
    // one open to others (XDG_RUNTIME_DIR=/tmp) is not private, as the XDG spec requires.
    if (runtime_dir != nullptr && runtime_dir[0] == '/' && ::lstat(runtime_dir, &info) == 0 &&
        S_ISDIR(info.st_mode) && info.st_uid == uid && (info.st_mode & 077) == 0) {
        return std::string(runtime_dir) + "/sandbox-runner";
    }
    return "/tmp/" + own_name;
}

// The caller's folder, from its environment and effective uid.
inline std::string locate() {
    return locate(std::getenv("TMPDIR"), std::getenv("XDG_RUNTIME_DIR"), ::geteuid());
}

struct Folder {
    std::string path;
    bool exists = false;
    // Empty when `path` is usable; else what is wrong with it and what to do, one sentence.
    std::string refusal;
};

enum class WhenMissing { create, leave };

namespace detail {

inline std::string refusal(const std::string &path, const std::string &problem,
                           const std::string &remedy) {
    return "per-user state folder " + path + " " + problem + "; " + remedy +
           ", or set TMPDIR to a folder of your own (sandbox-runner then uses "
           "$TMPDIR/sandbox-runner-<uid>)";
}

inline std::string octal_mode(mode_t mode) {
    char text[8];
    std::snprintf(text, sizeof text, "%04o", static_cast<unsigned>(mode & 07777));
    return text;
}

}  // namespace detail

// Checks `path` as `uid`'s private folder: a real folder (not a symlink), owned by `uid`,
// with no access for group or others. WhenMissing::create makes it first (mode 0700).
// The checks run on the folder actually opened (O_NOFOLLOW, then fstat), so a link or a
// folder swapped in between mkdir and the checks is refused, never followed. Its parent is
// usually the sticky /tmp or the user's own runtime dir, where nobody else can rename or
// remove it afterwards.
inline Folder open_private(const std::string &path, uid_t uid, WhenMissing missing) {
    Folder folder;
    folder.path = path;
    if (missing == WhenMissing::create && ::mkdir(path.c_str(), 0700) != 0 && errno != EEXIST) {
        folder.refusal =
            detail::refusal(path, std::string("cannot be created: ") + std::strerror(errno),
                            "check that its parent exists and is writable");
        return folder;
    }
    const int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        const int error = errno;
        struct stat info {};
        const bool present = ::lstat(path.c_str(), &info) == 0;
        if (!present && error == ENOENT && missing == WhenMissing::leave) {
            return folder;
        }
        folder.exists = present;
        if (present && S_ISLNK(info.st_mode)) {
            folder.refusal = detail::refusal(
                path, "is a symbolic link, which could send your workspaces anywhere",
                "remove it (`rm " + path + "`)");
        } else if (present && !S_ISDIR(info.st_mode)) {
            folder.refusal =
                detail::refusal(path, "is not a folder", "remove it (`rm " + path + "`)");
        } else {
            folder.refusal = detail::refusal(
                path, std::string("cannot be opened: ") + std::strerror(error), "fix its access");
        }
        return folder;
    }
    folder.exists = true;
    struct stat info {};
    const bool stated = ::fstat(fd, &info) == 0;
    const int stat_error = errno;
    ::close(fd);
    if (!stated) {
        folder.refusal = detail::refusal(
            path, std::string("cannot be examined: ") + std::strerror(stat_error), "fix it");
    } else if (info.st_uid != uid) {
        folder.refusal = detail::refusal(path,
                                         "belongs to uid " + std::to_string(info.st_uid) +
                                             ", not to you (uid " + std::to_string(uid) +
                                             "): whoever made it could read or steer your runs",
                                         "have its owner or root remove it");
    } else if ((info.st_mode & 077) != 0) {
        folder.refusal = detail::refusal(
            path, "is open to other users (mode " + detail::octal_mode(info.st_mode) + ")",
            "make it private (`chmod 700 " + path + "`)");
    }
    return folder;
}

// The caller's folder, created when missing and checked.
inline Folder prepare() {
    return open_private(locate(), ::geteuid(), WhenMissing::create);
}

}  // namespace sbx::user_state
