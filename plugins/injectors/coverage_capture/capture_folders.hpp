// Where a step's coverage data is written and where it is kept for the `coverage` collector:
// the target writes into its workspace (the one folder every executor's view lets it write
// and the host can read), and teardown moves the data out before the workspace is emptied,
// into a folder under the state dir named after the host process, so a sweep can tell the
// data of a dead host from a live one's.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace sbx::coverage_capture {

// The folder the step's target writes to: "<workspace>/.sbx-coverage/<run_id>".
std::filesystem::path capture_folder(const std::filesystem::path &workspace,
                                     const std::string &run_id);

// The folder the data is kept in: "<state_dir>/coverage_capture/<host pid>-<start>/<run_id>".
std::filesystem::path kept_folder(const std::filesystem::path &state_dir,
                                  const std::string &run_id);

// This host process's folder of kept data: "<state_dir>/coverage_capture/<host pid>-<start>".
std::filesystem::path host_folder(const std::filesystem::path &state_dir);

// Moves `from` (when it exists) to `to`, across filesystems too, and removes the capture
// parent when it is left empty. Throws std::filesystem::filesystem_error.
void keep(const std::filesystem::path &from, const std::filesystem::path &to);

// Removes the kept folders of host processes that are gone; returns what it removed (or,
// with `dry_run`, would remove).
std::vector<std::string> sweep_kept(const std::filesystem::path &state_dir, bool dry_run);

}  // namespace sbx::coverage_capture
