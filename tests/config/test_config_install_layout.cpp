// Where a host finds its parts relative to its binary (config/install_layout): plugin
// directories, the installed settings, the plugin host, the doc pages.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <optional>

#include "config/install_layout.hpp"
#include "util/temp_dir.hpp"

namespace sbx::config {
namespace {

namespace fs = std::filesystem;

// XDG_DATA_HOME set for one test, put back after.
class DataHome {
  public:
    explicit DataHome(const char *value) {
        if (const char *kept = std::getenv("XDG_DATA_HOME")) {
            kept_ = kept;
        }
        ::setenv("XDG_DATA_HOME", value, 1);
    }
    ~DataHome() {
        if (kept_) {
            ::setenv("XDG_DATA_HOME", kept_->c_str(), 1);
        } else {
            ::unsetenv("XDG_DATA_HOME");
        }
    }
    DataHome(const DataHome &) = delete;
    DataHome &operator=(const DataHome &) = delete;

  private:
    std::optional<std::string> kept_;
};

TEST(InstallLayout, TheUsersPluginsComeFirstThenTheBuildTreesThenTheInstalled) {
    const DataHome home("/data");
    EXPECT_EQ(default_plugin_dirs("/opt/sbx/bin/sandbox-runner"),
              (std::vector<fs::path>{"/data/sandbox-runner/plugins", "/opt/sbx/plugins",
                                     "/opt/sbx/lib/sandbox-runner/plugins"}));
    EXPECT_EQ(own_plugin_dirs("/opt/sbx/bin/sandbox-runner"),
              (std::vector<fs::path>{"/opt/sbx/plugins", "/opt/sbx/lib/sandbox-runner/plugins"}));
}

TEST(InstallLayout, AFolderConfiguredIsNotSearchedTwice) {
    const TempDir root(fs::temp_directory_path(), "layout-");
    const DataHome home((root.path() / "data").c_str());
    fs::create_directories(root.path() / "plugins");
    fs::create_directories(root.path() / "bin");
    const auto executable = root.path() / "bin" / "sandbox-runner";
    const auto dirs =
        plugin_search_dirs({"mine", (root.path() / "bin" / ".." / "plugins").string()}, executable);
    ASSERT_EQ(dirs.size(), 4U);
    EXPECT_EQ(dirs[0], "mine");
    EXPECT_EQ(dirs[2], root.path() / "data" / "sandbox-runner" / "plugins");
    EXPECT_EQ(dirs[3], root.path() / "lib" / "sandbox-runner" / "plugins");
}

TEST(InstallLayout, ABuildTreeHasNoInstalledSettingsNorDocs) {
    const TempDir root(fs::temp_directory_path(), "layout-");
    const auto executable = root.path() / "bin" / "sandbox-runner";
    EXPECT_EQ(installed_settings_file(executable), "");
    EXPECT_EQ(default_settings(executable, "data_dir: x\n").source,
              "config/sandbox_settings.yaml (embedded)");
    EXPECT_EQ(doc_reference(executable, "abi.md"), "docs/abi.md");
    EXPECT_EQ(plugin_host_beside(executable),
              root.path() / "libexec" / "sandbox-runner" / "sbx-plugin-host");
}

TEST(InstallLayout, AnInstalledHostReadsTheSettingsInstalledBesideIt) {
    const TempDir root(fs::temp_directory_path(), "layout-");
    const auto executable = root.path() / "bin" / "sandbox-runner";
    const auto installed = root.path() / "share" / "sandbox-runner" / "sandbox_settings.yaml";
    fs::create_directories(installed.parent_path());
    std::ofstream(installed) << "data_dir: installed\n";
    EXPECT_EQ(installed_settings_file(executable), installed.string());
    const auto defaults = default_settings(executable, "data_dir: embedded\n");
    EXPECT_EQ(defaults.source, installed.string());
    EXPECT_EQ(defaults.yaml, "data_dir: installed\n");
}

}  // namespace
}  // namespace sbx::config
