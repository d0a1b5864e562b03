// The install layout, relative to the binary. The folder names come from the build
// (SBX_INSTALL_*), so the install rules and the host cannot disagree.
#include "config/install_layout.hpp"

#include <cstdlib>

#include "util/input_file.hpp"

#ifndef SBX_INSTALL_PLUGIN_DIR
#define SBX_INSTALL_PLUGIN_DIR "lib/sandbox-runner/plugins"
#endif
#ifndef SBX_INSTALL_LIBEXEC_DIR
#define SBX_INSTALL_LIBEXEC_DIR "libexec/sandbox-runner"
#endif
#ifndef SBX_INSTALL_DATA_DIR
#define SBX_INSTALL_DATA_DIR "share/sandbox-runner"
#endif
#ifndef SBX_INSTALL_DOC_DIR
#define SBX_INSTALL_DOC_DIR "share/doc/sandbox-runner"
#endif

namespace sbx::config {
namespace {

// XDG base directory rules: an unset, empty or relative XDG_DATA_HOME is ignored.
std::filesystem::path user_data_home() {
    const char *xdg = std::getenv("XDG_DATA_HOME");
    if (xdg != nullptr && xdg[0] == '/') {
        return xdg;
    }
    const char *home = std::getenv("HOME");
    if (home != nullptr && home[0] != '\0') {
        return std::filesystem::path(home) / ".local" / "share";
    }
    return {};
}

}  // namespace

std::filesystem::path executable_path(const std::string &program_path) {
    std::error_code ec;
    auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec) {
        exe = std::filesystem::absolute(program_path, ec);
    }
    return exe;
}

std::vector<std::filesystem::path> default_plugin_dirs(const std::filesystem::path &executable) {
    std::vector<std::filesystem::path> dirs;
    const auto data_home = user_data_home();
    if (!data_home.empty()) {
        dirs.push_back(data_home / "sandbox-runner" / "plugins");
    }
    const auto prefix = executable.parent_path().parent_path();
    dirs.push_back((prefix / "plugins").lexically_normal());
    dirs.push_back((prefix / SBX_INSTALL_PLUGIN_DIR).lexically_normal());
    return dirs;
}

std::vector<std::filesystem::path> own_plugin_dirs(const std::filesystem::path &executable) {
    auto dirs = default_plugin_dirs(executable);
    dirs.erase(dirs.begin(), dirs.end() - 2);  // the build tree's and the installed ones
    return dirs;
}

std::vector<std::filesystem::path> plugin_search_dirs(const std::vector<std::string> &configured,
                                                      const std::filesystem::path &executable) {
    std::vector<std::filesystem::path> dirs(configured.begin(), configured.end());
    // The user's, the build tree's and the installed plugins are always found, so the
    // binary works from any directory; one already configured is not searched twice.
    for (const auto &fallback : default_plugin_dirs(executable)) {
        bool listed = false;
        for (const auto &dir : dirs) {
            std::error_code ec;
            listed = listed || std::filesystem::equivalent(dir, fallback, ec);
        }
        if (!listed) {
            dirs.push_back(fallback);
        }
    }
    return dirs;
}

std::filesystem::path plugin_host_beside(const std::filesystem::path &executable) {
    std::error_code ec;
    auto in_build_tree = executable.parent_path() / "sbx-plugin-host";
    if (std::filesystem::is_regular_file(in_build_tree, ec)) {
        return in_build_tree;
    }
    return (executable.parent_path().parent_path() / SBX_INSTALL_LIBEXEC_DIR / "sbx-plugin-host")
        .lexically_normal();
}

std::string doc_reference(const std::filesystem::path &executable, const std::string &page) {
    const auto installed =
        (executable.parent_path().parent_path() / SBX_INSTALL_DOC_DIR / page).lexically_normal();
    std::error_code ec;
    return std::filesystem::is_regular_file(installed, ec) ? installed.string() : "docs/" + page;
}

std::string installed_settings_file(const std::filesystem::path &executable) {
    const auto file =
        (executable.parent_path().parent_path() / SBX_INSTALL_DATA_DIR / "sandbox_settings.yaml")
            .lexically_normal();
    std::error_code ec;
    return std::filesystem::is_regular_file(file, ec) ? file.string() : std::string();
}

DefaultSettings default_settings(const std::filesystem::path &executable, const char *embedded) {
    const std::string installed = installed_settings_file(executable);
    if (installed.empty()) {
        return {embedded, "config/sandbox_settings.yaml (embedded)"};
    }
    return {read_input_file(installed, "the installed settings file",
                            "reinstall sandbox-runner or give --config"),
            installed};
}

}  // namespace sbx::config
