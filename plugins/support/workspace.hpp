// The folder a run executes in: a fresh one per run (removed when the run ends, however it
// ends, unless kept), or an existing one the spec names (used, never removed).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace sbx::support {

// The caller's per-user folder (sbx/user_state.hpp: the one the host uses too), made when
// missing. Throws sbx::Error(SBX_INVALID) saying what to do when it is refused: another
// user's, a symlink, or open to others.
std::string private_state_folder();

class Workspace {
  public:
    // Makes <root>/run-<id>-XXXXXX (mode 0700), creating `root` when missing; an empty
    // `root` means private_state_folder().
    static Workspace create_fresh(const std::string &root, const std::string &run_id);
    // Uses an existing folder; it is never removed.
    static Workspace use_existing(const std::string &path);
    // What a run spec asks for: its `workspace` folder when it names one, else a fresh one
    // under `root`, kept when `keep` (the spec's keep_workspace).
    static Workspace for_spec(const std::string &spec_workspace, bool keep, const std::string &root,
                              const std::string &run_id);

    ~Workspace();
    Workspace(Workspace &&other) noexcept;
    Workspace &operator=(Workspace &&) = delete;
    Workspace(const Workspace &) = delete;
    Workspace &operator=(const Workspace &) = delete;

    [[nodiscard]] const std::string &path() const { return path_; }
    // True when the folder outlives the run (kept, or not ours to remove).
    [[nodiscard]] bool survives() const { return !remove_at_end_; }
    void keep() { remove_at_end_ = false; }

    // Writes each relative path (already checked by check_workspace_path) with its content,
    // creating folders on the way. Refuses to follow symlinks, so an existing workspace
    // cannot redirect a write outside itself. Throws sbx::Error naming the file.
    void write_files(const std::vector<std::pair<std::string, std::string>> &files) const;

    // Opens the folder (O_DIRECTORY); throws sbx::Error naming it.
    [[nodiscard]] int open_folder() const;

    // True when some regular file in the workspace is at least `bytes` long: the trace
    // RLIMIT_FSIZE leaves when a write was cut short. Looks at a bounded number of entries.
    [[nodiscard]] bool has_file_of_at_least(std::uint64_t bytes) const;

  private:
    Workspace(std::string path, bool remove_at_end)
        : path_(std::move(path)), remove_at_end_(remove_at_end) {}
    std::string path_;
    bool remove_at_end_;
};

// "<folder>/<name>", for messages and relative paths (one allocation).
std::string path_in(const std::string &folder, const std::string &name);

// Writes `files` below the folder open as `root` (shown as `shown_root` in errors), the way
// Workspace::write_files does: folders made on the way, no symlink followed.
void write_workspace_files(int root, const std::string &shown_root,
                           const std::vector<std::pair<std::string, std::string>> &files);

}  // namespace sbx::support
