// Staging the build's runtime files where other users reach them.
#include "reachable_by_others.hpp"

#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "command.hpp"

namespace sbx::test {
namespace {

namespace fs = std::filesystem;

constexpr auto kOpenFolder = fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                             fs::perms::others_read | fs::perms::others_exec;

// Whether the mode bits of `path` grant others all of `bits`.
bool others_may(const fs::path &path, mode_t bits) {
    struct stat info {};
    return ::stat(path.c_str(), &info) == 0 && (info.st_mode & bits) == bits;
}

// What others need of a staged file: to read it, and to run it when its owner can.
mode_t others_need(const fs::path &file) {
    struct stat info {};
    const bool program = ::stat(file.c_str(), &info) == 0 && (info.st_mode & S_IXUSR) != 0;
    return S_IROTH | (program ? S_IXOTH : 0);
}

// The mode is set, not left to the umask: a user of umask 077 would make folders that
// hide what they hold all over again.
void make_open_folder(const fs::path &folder) {
    fs::create_directories(folder);
    fs::permissions(folder, kOpenFolder);
}

// A hard link where the file is open to others already (instant, whatever the size of its
// debug info); a copy opened to others where the link fails (another filesystem) or would
// not help (a link shares the original's mode, which is not the test's to change).
void stage_file(const fs::path &from, const fs::path &to) {
    const mode_t needed = others_need(from);
    if (others_may(from, needed)) {
        std::error_code error;
        fs::create_hard_link(from, to, error);
        if (!error) {
            return;
        }
    }
    fs::copy_file(from, to, fs::copy_options::overwrite_existing);
    fs::permissions(to, static_cast<fs::perms>(needed), fs::perm_options::add);
}

// Everything under `from` but the build system's object files (CMakeFiles): the plugins,
// and what they find beside themselves (the disk_corruption shim, docker's helpers, the
// qemu guest), whatever is added there later.
void stage_tree(const fs::path &from, const fs::path &to) {
    make_open_folder(to);
    for (auto entry = fs::recursive_directory_iterator(from);
         entry != fs::recursive_directory_iterator(); ++entry) {
        const fs::path target = to / fs::relative(entry->path(), from);
        if (entry->is_symlink()) {
            fs::copy_symlink(entry->path(), target);
        } else if (entry->is_directory()) {
            if (entry->path().filename() == "CMakeFiles") {
                entry.disable_recursion_pending();
            } else {
                make_open_folder(target);
            }
        } else if (entry->is_regular_file()) {
            stage_file(entry->path(), target);
        }
    }
}

// <build>/bin/sandbox-runner and bin/sbx-plugin-host, and <build>/plugins, at the same
// places relative to each other: the host finds its plugins and its plugin host from its
// own path (host/cli/install_layout.cpp). Returns the staged binary.
std::string stage_build(const fs::path &binary, const fs::path &into) {
    const fs::path bin = binary.parent_path();
    make_open_folder(into / "bin");
    for (const fs::path &program : {binary.filename(), fs::path("sbx-plugin-host")}) {
        stage_file(bin / program, into / "bin" / program);
    }
    stage_tree(bin.parent_path() / "plugins", into / "plugins");
    return (into / "bin" / binary.filename()).string();
}

std::string make_temp_dir_in(const std::string &parent, const std::string &prefix) {
    std::string pattern = parent + "/" + prefix + "XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr) {
        throw std::runtime_error("mkdtemp failed for " + pattern);
    }
    return pattern;
}

// Under /tmp itself, not $TMPDIR: the suite's TMPDIR may be the very folder others cannot
// reach.
std::string make_open_temp_dir() {
    std::string folder = make_temp_dir_in("/tmp", "sbx-for-others-");
    fs::permissions(folder, kOpenFolder);
    return folder;
}

// Where make_temp_dir makes its folders.
std::string temp_root() {
    const char *tmpdir = std::getenv("TMPDIR");
    return tmpdir != nullptr ? tmpdir : "/tmp";
}

}  // namespace

bool others_can_reach(const std::string &path) {
    std::error_code error;
    const fs::path real = fs::weakly_canonical(path, error);
    if (error || !others_may(real, fs::is_directory(real, error) ? S_IXOTH : S_IROTH)) {
        return false;
    }
    for (fs::path folder = real.parent_path();; folder = folder.parent_path()) {
        if (!others_may(folder, S_IXOTH)) {
            return false;
        }
        if (folder == folder.root_path()) {
            return true;
        }
    }
}

ReachableByOthers::ReachableByOthers(const std::string &binary) : binary_(binary) {
    const bool binary_hidden = !others_can_reach(binary);
    if (!binary_hidden && others_can_reach(temp_root())) {
        return;
    }
    staged_ = make_open_temp_dir();
    try {
        if (binary_hidden) {
            binary_ = stage_build(binary, fs::path(staged_) / "build");
        }
    } catch (...) {
        std::error_code ignored;
        fs::remove_all(staged_, ignored);
        throw;
    }
}

std::string ReachableByOthers::make_folder(const std::string &prefix) const {
    return staged_.empty() ? make_temp_dir(prefix) : make_temp_dir_in(staged_, prefix);
}

ReachableByOthers::~ReachableByOthers() {
    if (!staged_.empty()) {
        std::error_code ignored;  // a destructor must not throw
        fs::remove_all(staged_, ignored);
    }
}

}  // namespace sbx::test
