// A preload shim at a path LD_PRELOAD can carry. ld.so splits LD_PRELOAD at colons and
// spaces and has no escape, so a shim built or installed under a path holding one (a
// checkout in "/tmp/a b") cannot be preloaded from where it is: it is copied into the
// per-user state folder (or, when that path holds one too, the one under /tmp or
// $XDG_RUNTIME_DIR), the copy named after this process and removed with this object; sweep
// removes the copies of processes that died.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace sbx::disk_corruption {

// True when LD_PRELOAD can carry `path` as it is.
bool preloadable(const std::string &path);

class PreloadCopy {
  public:
    // `shim` itself when preloadable, else a fresh copy of it. Throws sbx::Error(SBX_UNSUPPORTED)
    // naming both paths when no copy can be made: the run cannot happen on this install.
    explicit PreloadCopy(const std::filesystem::path &shim);
    ~PreloadCopy();
    PreloadCopy(const PreloadCopy &) = delete;
    PreloadCopy &operator=(const PreloadCopy &) = delete;
    PreloadCopy(PreloadCopy &&) = delete;
    PreloadCopy &operator=(PreloadCopy &&) = delete;

    [[nodiscard]] const std::filesystem::path &path() const { return path_; }

  private:
    std::filesystem::path path_;
    bool owned_ = false;  // a copy of this object's, removed with it
};

// The copies of processes that no longer run, removed (or only listed when `dry_run`):
// "preload copy PATH" each.
std::vector<std::string> sweep_preload_copies(bool dry_run);

}  // namespace sbx::disk_corruption
