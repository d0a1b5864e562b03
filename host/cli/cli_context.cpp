// Building the effective settings and the plugin registry for a command.
#include "cli_context.hpp"

#include <unistd.h>

#include <cstdlib>

#include "config/load_settings.hpp"
#include "logging/logging.hpp"

namespace sbx::cli {

extern const char *const kEmbeddedSettings;

namespace {

// Plugins installed beside the binary (build/bin/../plugins) are always found, so the
// binary works from any directory.
std::string plugins_beside_binary(const std::string &program_path) {
    std::error_code ec;
    auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec) {
        exe = std::filesystem::absolute(program_path, ec);
    }
    return (exe.parent_path().parent_path() / "plugins").lexically_normal().string();
}

}  // namespace

plugins::Registry &CliContext::registry() {
    if (!registry_) {
        registry_ = std::make_unique<plugins::Registry>();
        std::vector<std::filesystem::path> dirs(settings.plugin_dirs.begin(),
                                                settings.plugin_dirs.end());
        const auto beside = plugins_beside_binary(options.program_path);
        bool listed = false;
        for (const auto &dir : dirs) {
            std::error_code ec;
            listed = listed || std::filesystem::equivalent(dir, beside, ec);
        }
        if (!listed) {
            dirs.emplace_back(beside);
        }
        registry_->scan(dirs);
    }
    return *registry_;
}

CliContext make_context(const GlobalOptions &options) {
    CliContext context;
    context.options = options;
    std::string path = options.config_path;
    if (path.empty()) {
        if (const char *from_env = std::getenv("SANDBOX_SETTINGS_YAML")) {
            path = from_env;
        }
    }
    context.settings = path.empty()
                           ? config::load_settings_text(kEmbeddedSettings,
                                                        "config/sandbox_settings.yaml (embedded)")
                           : config::load_settings_file(path);
    config::apply_environment(context.settings);
    auto &settings = context.settings;
    if (!options.data_dir.empty()) {
        settings.data_dir = options.data_dir;
    }
    if (!options.plugin_dirs.empty()) {
        settings.plugin_dirs.insert(settings.plugin_dirs.begin(), options.plugin_dirs.begin(),
                                    options.plugin_dirs.end());
    }
    if (!options.log_level.empty()) {
        settings.log_level = options.log_level;
    }
    settings.json_logs = settings.json_logs || options.json_logs;
    logging::setup(logging::parse_level(settings.log_level, options.log_level.empty()
                                                                ? settings.source + " (log_level)"
                                                                : "--log-level"),
                   settings.json_logs);
    return context;
}

}  // namespace sbx::cli
