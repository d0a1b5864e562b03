// The capture and keep folders of coverage data, and their sweep.
#include "capture_folders.hpp"

#include <sbx/process_identity.hpp>

#include <system_error>

namespace sbx::coverage_capture {
namespace fs = std::filesystem;
namespace {

constexpr const char *kCaptureName = ".sbx-coverage";
constexpr const char *kKeptName = "coverage_capture";

// "<pid>-<start time>" of this process: the name of its kept folder.
std::string host_folder_name() {
    const ProcessIdentity self = ProcessIdentity::current();
    return std::to_string(self.pid) + "-" + std::to_string(self.start_time);
}

ProcessIdentity owner_of(const std::string &folder_name) {
    const auto dash = folder_name.find('-');
    if (dash == std::string::npos) {
        return {};
    }
    std::string text = folder_name;
    text[dash] = ' ';
    return ProcessIdentity::parse(text);
}

}  // namespace

fs::path capture_folder(const fs::path &workspace, const std::string &run_id) {
    return workspace / kCaptureName / run_id;
}

fs::path host_folder(const fs::path &state_dir) {
    return state_dir / kKeptName / host_folder_name();
}

fs::path kept_folder(const fs::path &state_dir, const std::string &run_id) {
    return host_folder(state_dir) / run_id;
}

void keep(const fs::path &from, const fs::path &to) {
    if (!fs::exists(from)) {
        return;
    }
    fs::create_directories(to.parent_path());
    std::error_code renamed;
    fs::rename(from, to, renamed);
    if (renamed) {
        // Another filesystem (a workspace under /tmp, a data dir elsewhere): copy, then remove.
        // Links are copied as links: the target made them, and they may point anywhere.
        fs::copy(from, to,
                 fs::copy_options::recursive | fs::copy_options::overwrite_existing |
                     fs::copy_options::copy_symlinks);
        fs::remove_all(from);
    }
    std::error_code ignored;
    fs::remove(from.parent_path(), ignored);  // only when empty: other copies may write there
}

std::vector<std::string> sweep_kept(const fs::path &state_dir, bool dry_run) {
    std::vector<std::string> removed;
    const fs::path root = state_dir / kKeptName;
    std::error_code error;
    for (const auto &entry : fs::directory_iterator(root, error)) {
        if (owner_of(entry.path().filename().string()).alive()) {
            continue;
        }
        removed.push_back("coverage data of a finished host: " + entry.path().string());
        if (!dry_run) {
            fs::remove_all(entry.path(), error);
        }
    }
    return removed;
}

}  // namespace sbx::coverage_capture
