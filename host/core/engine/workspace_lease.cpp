// Reused, emptied-per-run workspace directories.
#include "engine/workspace_lease.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <sbx/unique_fd.hpp>
#include <sbx/user_state.hpp>

#include <chrono>
#include <cstdlib>
#include <fstream>

#include "util/errors.hpp"
#include "util/process_identity.hpp"

namespace sbx::engine {
namespace {

// The per-user folder of sbx/user_state.hpp, shared with the executor plugins so that a
// workspace a plugin makes lands where purge-stale looks. A folder planted by another
// user, a symlink or an open one is bad input the user must fix: exit 2 with what to do.
std::filesystem::path private_workspace_parent() {
    const auto folder = user_state::prepare();
    if (!folder.refusal.empty()) {
        throw InputError(folder.refusal);
    }
    return folder.path;
}

// Where versions before the per-user folder put workspaces: $TMPDIR/sandbox-runner, else
// /tmp/sandbox-runner. Swept when it is the caller's own, real folder, so that upgrading
// leaves no invisible leftovers.
std::filesystem::path legacy_workspace_parent() {
    const char *tmpdir = std::getenv("TMPDIR");
    return std::filesystem::path(tmpdir != nullptr && tmpdir[0] == '/' ? tmpdir : "/tmp") /
           "sandbox-runner";
}

// True when `folder` surely holds nothing but "." and "..": what a run of a target that
// writes nothing leaves, checked with three system calls and no allocation (emptying with
// directory_iterator cost 22 us a run here). False when unsure; the caller then empties.
bool surely_empty(const std::filesystem::path &folder) {
    const UniqueFd opened(::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!opened.valid()) {
        return false;
    }
    alignas(8) char buffer[1024];
    for (;;) {
        const long got = ::syscall(SYS_getdents64, opened.get(), buffer, sizeof buffer);
        if (got == 0) {
            return true;
        }
        if (got < 0) {
            return false;
        }
        for (long offset = 0; offset < got;) {
            const auto *entry = reinterpret_cast<const dirent64 *>(buffer + offset);
            offset += entry->d_reclen;
            const char *name = entry->d_name;
            if (!(name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0')))) {
                return false;
            }
        }
    }
}

bool owned_real_folder(const std::filesystem::path &path) {
    struct stat info {};
    return ::lstat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode) && info.st_uid == ::geteuid();
}

// The folders purge-stale and check-resources look in. Never creates one: listing what is
// left must not change the machine. A refused per-user folder stops the sweep (exit 2),
// since what is in it may not be the caller's to remove.
std::vector<std::filesystem::path> workspace_parents_to_sweep() {
    const auto folder =
        user_state::open_private(user_state::locate(), ::geteuid(), user_state::WhenMissing::leave);
    if (!folder.refusal.empty()) {
        throw InputError(folder.refusal);
    }
    std::vector<std::filesystem::path> parents;
    if (folder.exists) {
        parents.emplace_back(folder.path);
    }
    if (legacy_workspace_parent() != folder.path && owned_real_folder(legacy_workspace_parent())) {
        parents.push_back(legacy_workspace_parent());
    }
    return parents;
}

std::filesystem::path workspace_owner_file(const std::filesystem::path &workspace) {
    return workspace.string() + ".owner";
}

}  // namespace

WorkspacePool::WorkspacePool(bool keep) : keep_(keep), parent_(private_workspace_parent()) {}

WorkspacePool::~WorkspacePool() {
    if (shared_) {
        std::error_code ec;
        std::filesystem::remove(workspace_owner_file(shared_->path()), ec);
    }
}

WorkspacePool::Lease WorkspacePool::lease() {
    if (keep_) {
        // "kept-": left on purpose, so purge-stale leaves it alone too.
        TempDir kept(parent_, "kept-");
        kept.release();
        return Lease(*this, kept.path());
    }
    if (!shared_) {
        shared_ = std::make_unique<TempDir>(parent_, "run-");
        // Beside the workspace, not in it (the target must find it empty): which process
        // owns it, so purge-stale can tell a crashed host's workspace from a live one's.
        std::ofstream(workspace_owner_file(shared_->path())) << own_identity() << '\n';
    }
    return Lease(*this, shared_->path());
}

namespace {

void sweep_folder(const std::filesystem::path &parent, bool dry_run,
                  std::vector<std::string> &removed) {
    std::error_code ec;
    for (const auto &entry : std::filesystem::directory_iterator(parent, ec)) {
        const auto name = entry.path().filename().string();
        if (name.rfind("run-", 0) != 0 || name.find('.') != std::string::npos) {
            continue;
        }
        std::string owner;
        std::getline(std::ifstream(workspace_owner_file(entry.path())), owner);
        if (identity_alive(owner)) {
            continue;
        }
        // A workspace made a moment ago may not have its owner file yet; one whose owner
        // is named and dead goes at once (a host killed a moment ago).
        std::error_code age_error;
        const auto modified = std::filesystem::last_write_time(entry.path(), age_error);
        if (owner.empty() && !age_error &&
            std::filesystem::file_time_type::clock::now() - modified < std::chrono::seconds(10)) {
            continue;
        }
        removed.push_back("workspace " + entry.path().string());
        if (!dry_run) {
            std::error_code ignored;
            std::filesystem::remove_all(entry.path(), ignored);
            std::filesystem::remove(workspace_owner_file(entry.path()), ignored);
        }
    }
}

}  // namespace

std::vector<std::string> sweep_workspaces(bool dry_run) {
    std::vector<std::string> removed;
    for (const auto &parent : workspace_parents_to_sweep()) {
        sweep_folder(parent, dry_run, removed);
    }
    return removed;
}

WorkspacePool::Lease::Lease(WorkspacePool &pool, std::filesystem::path path)
    : pool_(pool), path_(std::move(path)) {}

WorkspacePool::Lease::~Lease() {
    if (pool_.keep_ || surely_empty(path_)) {
        return;
    }
    std::error_code ec;
    for (std::filesystem::directory_iterator it(path_, ec), end; !ec && it != end;
         it.increment(ec)) {
        std::error_code ignored;
        std::filesystem::remove_all(it->path(), ignored);
    }
    if (ec) {
        // The directory itself is damaged (the target chmod'ed it, say): start afresh.
        spdlog::warn("workspace {} could not be emptied ({}); using a new one", path_.string(),
                     ec.message());
        std::error_code ignored;
        std::filesystem::remove(workspace_owner_file(path_), ignored);
        pool_.shared_.reset();
    }
}

}  // namespace sbx::engine
