// Per-run workspace folders: creation under the configured root, writing the spec's files
// without following symlinks, and recursive removal at scope end.
#include "workspace.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sbx/user_state.hpp>

#include <cerrno>
#include <filesystem>
#include <system_error>
#include <utility>

#include <sbx/unique_fd.hpp>
#include "sys_error.hpp"

namespace sbx::support {
namespace {

// The folder fresh workspaces go in: the configured `root`, created (with its parents) when
// missing, or without one the per-user folder. Either must belong to us: a folder another
// user planted in /tmp could otherwise see or steer every workspace.
std::string ensure_root(const std::string &root) {
    if (root.empty()) {
        return private_state_folder();
    }
    std::error_code error;
    std::filesystem::create_directories(root, error);
    struct stat info {};
    if (::lstat(root.c_str(), &info) != 0) {
        throw_system_error("cannot create workspace root " + root, errno);
    }
    if (!S_ISDIR(info.st_mode)) {
        throw Error(SBX_ERROR, "workspace root " + root + " is not a folder; set workspace_root");
    }
    if (info.st_uid != ::geteuid()) {
        throw Error(SBX_ERROR, "workspace root " + root + " belongs to uid " +
                                   std::to_string(info.st_uid) + ", not to us; set workspace_root");
    }
    return root;
}

// Keeps the run id readable in the folder name without letting it add path components.
std::string folder_tag(const std::string &run_id) {
    std::string tag;
    for (const char c : run_id) {
        if (tag.size() >= 32) {
            break;
        }
        const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                           (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
        tag += plain ? c : '_';
    }
    return tag;
}

// Opens (creating when missing) the folder `name` inside `parent`, refusing symlinks.
UniqueFd open_child_folder(int parent, const std::string &name, const std::string &shown) {
    if (::mkdirat(parent, name.c_str(), 0755) != 0 && errno != EEXIST) {
        throw_system_error("cannot create folder " + shown, errno);
    }
    UniqueFd folder(
        ::openat(parent, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!folder.valid()) {
        throw_system_error("cannot open folder " + shown, errno);
    }
    return folder;
}

void write_all(int fd, const std::string &content, const std::string &shown) {
    std::size_t done = 0;
    while (done < content.size()) {
        const ssize_t written = ::write(fd, content.data() + done, content.size() - done);
        if (written < 0) {
            if (errno == EINTR) {
                continue;
            }
            throw_system_error("cannot write " + shown, errno);
        }
        done += static_cast<std::size_t>(written);
    }
}

}  // namespace

std::string private_state_folder() {
    const auto folder = user_state::prepare();
    if (!folder.refusal.empty()) {
        throw Error(SBX_INVALID, folder.refusal);
    }
    return folder.path;
}

Workspace Workspace::create_fresh(const std::string &configured_root, const std::string &run_id) {
    const std::string root = ensure_root(configured_root);
    const std::string tag = folder_tag(run_id);
    std::string pattern = root + "/run-" + (tag.empty() ? "" : tag + "-") + "XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr) {
        throw_system_error("cannot create a workspace in " + root, errno);
    }
    return Workspace(pattern, true);
}

Workspace Workspace::use_existing(const std::string &path) {
    return Workspace(path, false);
}

Workspace Workspace::for_spec(const std::string &spec_workspace, bool keep, const std::string &root,
                              const std::string &run_id) {
    Workspace workspace =
        spec_workspace.empty() ? create_fresh(root, run_id) : use_existing(spec_workspace);
    if (keep) {
        workspace.keep();
    }
    return workspace;
}

Workspace::Workspace(Workspace &&other) noexcept
    : path_(std::move(other.path_)), remove_at_end_(other.remove_at_end_) {
    other.remove_at_end_ = false;
}

Workspace::~Workspace() {
    if (!remove_at_end_) {
        return;
    }
    // remove_all never follows symlinks, so a link the target left cannot widen the delete.
    std::error_code error;
    std::filesystem::remove_all(path_, error);
    if (error) {
        host::log(SBX_LOG_WARN, "cannot remove workspace " + path_ + ": " + error.message());
    }
}

int Workspace::open_folder() const {
    const int folder = ::open(path_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (folder < 0) {
        throw_system_error("cannot open workspace " + path_, errno);
    }
    return folder;
}

void Workspace::write_files(const std::vector<std::pair<std::string, std::string>> &files) const {
    if (files.empty()) {
        return;
    }
    const UniqueFd root(open_folder());
    write_workspace_files(root.get(), path_, files);
}

std::string path_in(const std::string &folder, const std::string &name) {
    std::string path;
    path.reserve(folder.size() + 1 + name.size());
    path += folder;
    path += '/';
    path += name;
    return path;
}

void write_workspace_files(int root, const std::string &shown_root,
                           const std::vector<std::pair<std::string, std::string>> &files) {
    for (const auto &[relative, content] : files) {
        const std::string shown = path_in(shown_root, relative);
        // Walk one component at a time: mkdirat/openat with a multi-component path would
        // follow a symlink planted in an intermediate folder.
        UniqueFd folder(::fcntl(root, F_DUPFD_CLOEXEC, 0));
        std::size_t start = 0;
        for (std::size_t slash = relative.find('/'); slash != std::string::npos;
             slash = relative.find('/', start)) {
            const std::string component = relative.substr(start, slash - start);
            start = slash + 1;
            if (component.empty() || component == ".") {
                continue;
            }
            folder = open_child_folder(folder.get(), component, shown);
        }
        const std::string name = relative.substr(start);
        UniqueFd file(::openat(folder.get(), name.c_str(),
                               O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644));
        if (!file.valid()) {
            throw_system_error("cannot create " + shown, errno);
        }
        write_all(file.get(), content, shown);
    }
}

bool Workspace::has_file_of_at_least(std::uint64_t bytes) const {
    constexpr int kMaxEntries = 10000;
    std::error_code error;
    std::filesystem::recursive_directory_iterator it(
        path_, std::filesystem::directory_options::skip_permission_denied, error);
    int seen = 0;
    for (; !error && it != std::filesystem::recursive_directory_iterator() && seen < kMaxEntries;
         it.increment(error), ++seen) {
        // symlink_status: a link to a big file elsewhere says nothing about this run.
        std::error_code entry_error;
        if (std::filesystem::is_regular_file(it->symlink_status(entry_error)) &&
            it->file_size(entry_error) >= bytes && !entry_error) {
            return true;
        }
    }
    return false;
}

}  // namespace sbx::support
