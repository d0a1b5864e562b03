// Reused, emptied-per-run workspace directories.
#include "engine/workspace_lease.hpp"

#include <spdlog/spdlog.h>

namespace sbx::engine {
namespace {

std::filesystem::path workspace_parent() {
    return std::filesystem::temp_directory_path() / "sandbox-runner";
}

}  // namespace

WorkspacePool::WorkspacePool(bool keep) : keep_(keep) {}

WorkspacePool::Lease WorkspacePool::lease() {
    if (keep_) {
        TempDir kept(workspace_parent(), "run-");
        kept.release();
        return Lease(*this, kept.path());
    }
    if (!shared_) {
        shared_ = std::make_unique<TempDir>(workspace_parent(), "run-");
    }
    return Lease(*this, shared_->path());
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
        pool_.shared_.reset();
    }
}

}  // namespace sbx::engine
