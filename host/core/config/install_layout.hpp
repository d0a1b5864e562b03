// Where an installed (or built) sandbox-runner finds its own files, relative to the binary
// so that a relocated install or an extracted .deb works: plugins and the default settings.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "config/load_settings.hpp"

namespace sbx::config {

// The running binary (/proc/self/exe), else argv[0] made absolute.
std::filesystem::path executable_path(const std::string &program_path);

// The plugin directories searched after the configured ones, in order: the user's
// ($XDG_DATA_HOME or ~/.local/share, then sandbox-runner/plugins), the build tree's
// <bin>/../plugins and the installed <bin>/../lib/sandbox-runner/plugins. Missing ones are
// skipped by the registry; the user's comes first so it can replace a built-in plugin.
std::vector<std::filesystem::path> default_plugin_dirs(const std::filesystem::path &executable);

// The host's own plugin directories (the build tree's and the installed one): what is
// found there is trusted to run in process under `plugin_host.isolation: auto`.
std::vector<std::filesystem::path> own_plugin_dirs(const std::filesystem::path &executable);

// What the registry scans: the `configured` directories, then each of default_plugin_dirs
// not already among them (the same folder is never searched twice).
std::vector<std::filesystem::path> plugin_search_dirs(const std::vector<std::string> &configured,
                                                      const std::filesystem::path &executable);

// The isolated-plugin host: <bin>/sbx-plugin-host in a build tree, else
// <bin>/../libexec/sandbox-runner/sbx-plugin-host.
std::filesystem::path plugin_host_beside(const std::filesystem::path &executable);

// How a message cites a doc page (`abi.md`): <bin>/../share/doc/sandbox-runner/abi.md when
// that file exists (an installed host, whose user has no docs/ folder), else `docs/abi.md`
// (a build tree: the sources' folder).
std::string doc_reference(const std::filesystem::path &executable, const std::string &page);

// <bin>/../share/sandbox-runner/sandbox_settings.yaml when it exists (an installed host),
// else "" (the embedded default is used).
std::string installed_settings_file(const std::filesystem::path &executable);

// The default settings: an installed host reads those installed beside it (their demo
// workflow names the installed demo target); a build tree has none and uses `embedded`.
// InputError when the installed file cannot be read.
DefaultSettings default_settings(const std::filesystem::path &executable, const char *embedded);

}  // namespace sbx::config
