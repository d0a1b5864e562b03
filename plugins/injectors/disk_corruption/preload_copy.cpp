// Copies of a preload shim at a path LD_PRELOAD can carry (preload_copy.hpp).
#include "preload_copy.hpp"
#include "support/environment_variable.hpp"

#include <sbx/plugin.hpp>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>

#include <sbx/process_identity.hpp>
#include <sbx/user_state.hpp>

namespace sbx::disk_corruption {
namespace {

namespace fs = std::filesystem;

constexpr const char kPrefix[] = "preload-";

// The folders a copy may go in: the per-user state folder, then the one it would be without
// TMPDIR. Only those LD_PRELOAD can carry.
std::vector<std::string> copy_folders() {
    std::vector<std::string> folders;
    for (const std::string &folder :
         {user_state::locate(),
          user_state::locate(nullptr, support::environment_variable("XDG_RUNTIME_DIR"),
                             ::geteuid())}) {
        if (preloadable(folder) &&
            std::find(folders.begin(), folders.end(), folder) == folders.end()) {
            folders.push_back(folder);
        }
    }
    return folders;
}

// "preload-<pid>-<start time>-<n>-<name>": whose it is, and never the same name twice.
std::string copy_name(const fs::path &shim) {
    static std::atomic<unsigned> count{0};
    const ProcessIdentity self = ProcessIdentity::current();
    return std::string(kPrefix) + std::to_string(self.pid) + "-" + std::to_string(self.start_time) +
           "-" + std::to_string(++count) + "-" + shim.filename().string();
}

// The process a copy's name says made it (never alive when the name is not one of ours).
ProcessIdentity maker_of(const std::string &name) {
    std::string fields = name.substr(sizeof(kPrefix) - 1);
    for (char &c : fields) {
        c = c == '-' ? ' ' : c;
    }
    return ProcessIdentity::parse(fields);
}

}  // namespace

bool preloadable(const std::string &path) {
    return path.find_first_of(": ") == std::string::npos;
}

PreloadCopy::PreloadCopy(const fs::path &shim) : path_(shim) {
    if (preloadable(shim.string())) {
        return;
    }
    std::string why = "no folder without a colon or space to copy it to";
    for (const std::string &folder : copy_folders()) {
        const user_state::Folder opened =
            user_state::open_private(folder, ::geteuid(), user_state::WhenMissing::create);
        if (!opened.refusal.empty()) {
            why = opened.refusal;
            continue;
        }
        const fs::path copy = fs::path(folder) / copy_name(shim);
        std::error_code error;
        if (fs::copy_file(shim, copy, error)) {
            path_ = copy;
            owned_ = true;
            return;
        }
        why = "copying it to " + copy.string() + ": " + error.message();
    }
    throw Error(SBX_UNSUPPORTED,
                "the LD_PRELOAD shim " + shim.string() +
                    " holds a colon or space, which LD_PRELOAD cannot carry, and " + why +
                    "; install the plugins under a path without them, or set "
                    "plugins.disk_corruption.shim to a copy of the shim there");
}

PreloadCopy::~PreloadCopy() {
    if (owned_) {
        std::error_code ignored;
        fs::remove(path_, ignored);
    }
}

std::vector<std::string> sweep_preload_copies(bool dry_run) {
    std::vector<std::string> removed;
    for (const std::string &folder : copy_folders()) {
        std::error_code error;
        for (const auto &entry : fs::directory_iterator(folder, error)) {
            const std::string name = entry.path().filename().string();
            if (name.rfind(kPrefix, 0) != 0 || maker_of(name).alive()) {
                continue;
            }
            std::error_code ignored;
            if (dry_run || fs::remove(entry.path(), ignored)) {
                removed.push_back("preload copy " + entry.path().string());
            }
        }
    }
    return removed;
}

}  // namespace sbx::disk_corruption
