// The workspace directory of one run: empty when the run starts, emptied (or kept, with
// --keep-workspaces) when it ends.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "util/temp_dir.hpp"

namespace sbx::engine {

// One runner's workspaces. Rationale: creating and removing a directory per run costs
// ~0.15 ms on a journalled /tmp, a quarter of the host's whole per-run budget; emptying
// one reused directory gives the target the same fresh, empty workspace for a fraction.
class WorkspacePool {
  public:
    // `keep`: every run gets its own new directory, left in place afterwards. Makes the
    // per-user folder (sbx/user_state.hpp) when missing; throws InputError when it is
    // refused (another user's, a symlink, open to others), before any run starts.
    explicit WorkspacePool(bool keep);
    ~WorkspacePool();
    WorkspacePool(const WorkspacePool &) = delete;
    WorkspacePool &operator=(const WorkspacePool &) = delete;

    class Lease {
      public:
        Lease(WorkspacePool &pool, std::filesystem::path path);
        ~Lease();  // empties the directory (unless kept)
        Lease(const Lease &) = delete;
        Lease &operator=(const Lease &) = delete;
        [[nodiscard]] const std::filesystem::path &path() const { return path_; }

      private:
        WorkspacePool &pool_;
        std::filesystem::path path_;
    };

    // The workspace for the next run: empty, and owned by this run until the lease ends.
    [[nodiscard]] Lease lease();

  private:
    bool keep_;
    std::filesystem::path parent_;     // the per-user folder the workspaces are made in
    std::unique_ptr<TempDir> shared_;  // the reused directory, removed with the pool
};

// Workspaces whose owning host is gone (killed before it could remove them), in the
// per-user folder and in the caller's own pre-per-user $TMPDIR/sandbox-runner; removes them
// unless `dry_run`. Returns one line per workspace. Throws InputError when the per-user
// folder is refused.
std::vector<std::string> sweep_workspaces(bool dry_run);

}  // namespace sbx::engine
