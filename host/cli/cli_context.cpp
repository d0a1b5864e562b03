// Building the effective settings and the plugin registry for a command.
#include "cli_context.hpp"

#include <unistd.h>

#include "config/load_settings.hpp"
#include "install_layout.hpp"
#include "logging/logging.hpp"
#include "plugins/plugin_process.hpp"
#include "store/alert_dispatch.hpp"
#include "util/input_file.hpp"

namespace sbx::cli {

extern const char *const kEmbeddedSettings;

plugins::Registry &CliContext::registry() {
    if (!registry_) {
        const auto executable = executable_path(options.program_path);
        registry_ = std::make_unique<plugins::Registry>(settings.plugin_host.policy,
                                                        own_plugin_dirs(executable));
        std::vector<std::filesystem::path> dirs(settings.plugin_dirs.begin(),
                                                settings.plugin_dirs.end());
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
        registry_->scan(dirs);
    }
    return *registry_;
}

CliContext make_context(const GlobalOptions &options) {
    // Every command that opens a plugin file (a run, `plugins verify`, `plugins call`) may
    // need the isolated-plugin host installed beside this binary.
    plugins::set_plugin_host_program(plugin_host_beside(executable_path(options.program_path)));
    CliContext context;
    context.options = options;
    const std::string path = options.config_path.empty() ? config::settings_file_from_environment()
                                                         : options.config_path;
    // The default settings: an installed host reads those installed beside it (their demo
    // workflow names the installed demo target); a build tree has none and uses the
    // embedded ones. A settings file may extend them (`extends: default`).
    const std::string installed = installed_settings_file(executable_path(options.program_path));
    const config::DefaultSettings defaults =
        installed.empty()
            ? config::DefaultSettings{kEmbeddedSettings, "config/sandbox_settings.yaml (embedded)"}
            : config::DefaultSettings{read_input_file(installed, "the installed settings file",
                                                      "reinstall sandbox-runner or give --config"),
                                      installed};
    context.settings = path.empty() ? config::load_settings_text(defaults.yaml, defaults.source)
                                    : config::load_settings_file(path, &defaults);
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
    } else if (options.quiet) {
        settings.log_level = "warn";
    }
    settings.json_logs = settings.json_logs || options.json_logs;
    settings.plugin_host.strict = settings.plugin_host.strict || options.strict_plugins;
    logging::setup(logging::parse_level(settings.log_level, options.log_level.empty()
                                                                ? settings.source + " (log_level)"
                                                                : "--log-level"),
                   settings.json_logs);
    store::set_alert_hook({settings.alert_command, settings.state_folder()});
    return context;
}

}  // namespace sbx::cli
