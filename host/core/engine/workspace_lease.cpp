// Reused, emptied-per-run workspace directories.
#include "engine/workspace_lease.hpp"

#include <spdlog/spdlog.h>

#include <chrono>
#include <fstream>

#include "util/process_identity.hpp"

namespace sbx::engine {
namespace {

std::filesystem::path workspace_parent() {
    return std::filesystem::temp_directory_path() / "sandbox-runner";
}

std::filesystem::path workspace_owner_file(const std::filesystem::path &workspace) {
    return workspace.string() + ".owner";
}

}  // namespace

WorkspacePool::WorkspacePool(bool keep) : keep_(keep) {}

WorkspacePool::~WorkspacePool() {
    if (shared_) {
        std::error_code ec;
        std::filesystem::remove(workspace_owner_file(shared_->path()), ec);
    }
}

WorkspacePool::Lease WorkspacePool::lease() {
    if (keep_) {
        // "kept-": left on purpose, so purge-stale leaves it alone too.
        TempDir kept(workspace_parent(), "kept-");
        kept.release();
        return Lease(*this, kept.path());
    }
    if (!shared_) {
        shared_ = std::make_unique<TempDir>(workspace_parent(), "run-");
        // Beside the workspace, not in it (the target must find it empty): which process
        // owns it, so purge-stale can tell a crashed host's workspace from a live one's.
        std::ofstream(workspace_owner_file(shared_->path())) << own_identity() << '\n';
    }
    return Lease(*this, shared_->path());
}

std::vector<std::string> sweep_workspaces(bool dry_run) {
    std::vector<std::string> removed;
    std::error_code ec;
    for (const auto &entry : std::filesystem::directory_iterator(workspace_parent(), ec)) {
        const auto name = entry.path().filename().string();
        if (name.rfind("run-", 0) != 0 || name.find('.') != std::string::npos) {
            continue;
        }
        std::string owner;
        std::getline(std::ifstream(workspace_owner_file(entry.path())), owner);
        if (identity_alive(owner)) {
            continue;
        }
        // A workspace made a moment ago may not have its owner file yet.
        std::error_code age_error;
        const auto modified = std::filesystem::last_write_time(entry.path(), age_error);
        if (!age_error &&
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
    return removed;
}

WorkspacePool::Lease::Lease(WorkspacePool &pool, std::filesystem::path path)
    : pool_(pool), path_(std::move(path)) {}

WorkspacePool::Lease::~Lease() {
    if (pool_.keep_) {
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
