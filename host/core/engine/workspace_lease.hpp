// The workspace directory of one run: empty when the run starts, emptied (or kept, with
// --keep-workspaces) when it ends.
#pragma once

#include <filesystem>
#include <memory>

#include "util/temp_dir.hpp"

namespace sbx::engine {

// One runner's workspaces. Rationale: creating and removing a directory per run costs
// ~0.15 ms on a journalled /tmp, a quarter of the host's whole per-run budget; emptying
// one reused directory gives the target the same fresh, empty workspace for a fraction.
class WorkspacePool {
  public:
    // `keep`: every run gets its own new directory, left in place afterwards.
    explicit WorkspacePool(bool keep);

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
    std::unique_ptr<TempDir> shared_;  // the reused directory, removed with the pool
};

}  // namespace sbx::engine
