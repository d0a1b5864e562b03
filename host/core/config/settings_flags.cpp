// The effective settings: file, variables, flags, in that order.
#include "config/settings_flags.hpp"

namespace sbx::config {

Settings effective_settings(const SettingsFlags &flags, const DefaultSettings &defaults,
                            const std::function<const char *(const char *)> &getenv) {
    const std::string path =
        flags.config_path.empty() ? settings_file_from_environment(getenv) : flags.config_path;
    Settings settings = path.empty() ? load_settings_text(defaults.yaml, defaults.source)
                                     : load_settings_file(path, &defaults);
    apply_environment(settings, getenv);
    if (!flags.data_dir.empty()) {
        settings.data_dir = flags.data_dir;
    }
    if (!flags.plugin_dirs.empty()) {
        settings.plugin_dirs.insert(settings.plugin_dirs.begin(), flags.plugin_dirs.begin(),
                                    flags.plugin_dirs.end());
    }
    if (!flags.log_level.empty()) {
        settings.log_level = flags.log_level;
    } else if (flags.quiet) {
        settings.log_level = "warn";
    }
    settings.json_logs = settings.json_logs || flags.json_logs;
    settings.plugin_host.strict = settings.plugin_host.strict || flags.strict_plugins;
    return settings;
}

}  // namespace sbx::config
