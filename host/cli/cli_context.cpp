// Building the effective settings and the plugin registry for a command.
#include "cli_context.hpp"

#include "install_layout.hpp"
#include "logging/logging.hpp"
#include "plugins/plugin_process.hpp"
#include "store/alert_dispatch.hpp"

namespace sbx::cli {

extern const char *const kEmbeddedSettings;

plugins::Registry &CliContext::registry() {
    if (!registry_) {
        const auto executable = executable_path(options.program_path);
        registry_ = std::make_unique<plugins::Registry>(settings.plugin_host.policy,
                                                        config::own_plugin_dirs(executable));
        registry_->scan(config::plugin_search_dirs(settings.plugin_dirs, executable));
    }
    return *registry_;
}

CliContext make_context(const GlobalOptions &options) {
    // Every command that opens a plugin file (a run, `plugins verify`, `plugins call`) may
    // need the isolated-plugin host installed beside this binary.
    plugins::set_plugin_host_program(
        config::plugin_host_beside(executable_path(options.program_path)));
    CliContext context;
    context.options = options;
    context.settings = config::effective_settings(
        options,
        config::default_settings(executable_path(options.program_path), kEmbeddedSettings));
    const auto &settings = context.settings;
    logging::setup(logging::parse_level(settings.log_level, options.log_level.empty()
                                                                ? settings.source + " (log_level)"
                                                                : "--log-level"),
                   settings.json_logs);
    store::set_alert_hook({settings.alert_command, settings.state_folder()});
    return context;
}

}  // namespace sbx::cli
