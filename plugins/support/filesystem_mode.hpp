// The `filesystem` setting: what a target sees of the host's files (mount_view.* builds it).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace sbx::support {

enum class FilesystemMode {
    kHost,      // the host's tree as it is
    kReadonly,  // read-only, but the workspace, a private /tmp and /dev/shm; its own /proc
    kMinimal,   // only the listed binds, the workspace, /dev (read-only), /tmp and its /proc
};

// "host", "readonly" or "minimal": the configuration's, the run spec's and the result's
// spelling.
const char *filesystem_name(FilesystemMode mode);

// A path of the host shown to a `minimal` target at the same place.
struct BindPath {
    std::string path;       // absolute
    bool writable = false;  // written "PATH:rw"
};
// At most this many binds: the init keeps one descriptor per bind on its small stack.
inline constexpr std::size_t kMaxBinds = 64;

// The spec's `binds`: strings "/usr" (read-only) or "/srv/data:rw", absolute, existing.
// Throws sbx::Error(SBX_INVALID) naming `where` and the entry.
std::vector<BindPath> read_binds(const std::vector<std::string> &entries, const std::string &where);

// The mode named `name`; throws sbx::Error(SBX_INVALID) naming `where` otherwise.
FilesystemMode read_filesystem_mode(const std::string &name, const std::string &where);

}  // namespace sbx::support
