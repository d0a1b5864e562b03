// Mapping the caller's ids in a fresh user namespace, from inside it (as `unshare -r` does):
// the kernel lets a namespace's first process map exactly its creator's effective ids.
#include "support/user_namespace.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>

namespace sbx::support {
namespace {

// The whole of `text` into `path` in one write(), as the proc map files require.
bool write_file(const char *path, const char *text) {
    std::size_t length = 0;
    while (text[length] != '\0') {
        ++length;
    }
    const int fd = ::open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) {
        return false;
    }
    const bool written = ::write(fd, text, length) == static_cast<ssize_t>(length);
    ::close(fd);
    return written;
}

}  // namespace

const IdMapText &caller_id_maps() {
    static const IdMapText maps = [] {
        IdMapText text;
        const unsigned uid = ::geteuid();
        const unsigned gid = ::getegid();
        std::snprintf(text.uid_map, sizeof(text.uid_map), "%u %u 1\n", uid, uid);
        std::snprintf(text.gid_map, sizeof(text.gid_map), "%u %u 1\n", gid, gid);
        return text;
    }();
    return maps;
}

bool write_id_maps(const IdMapText &maps) {
    return write_file("/proc/self/setgroups", "deny") &&
           write_file("/proc/self/uid_map", maps.uid_map) &&
           write_file("/proc/self/gid_map", maps.gid_map);
}

}  // namespace sbx::support
