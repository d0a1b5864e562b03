// The global options that change the settings (--config, --data-dir, --plugin-dir,
// --log-level, --json-logs, --quiet, --strict-plugins), and the effective settings of a
// command: the file (or the defaults), then the SANDBOX_* variables, then these flags.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "config/load_settings.hpp"
#include "config/settings.hpp"

namespace sbx::config {

struct SettingsFlags {
    std::string config_path;  // "" = SANDBOX_SETTINGS_YAML, else installed, else embedded
    std::string data_dir;
    std::vector<std::string> plugin_dirs;  // searched before the settings' own
    std::string log_level;
    bool json_logs = false;
    // --quiet: warnings and errors only, no progress line.
    bool quiet = false;
    // --strict-plugins: a disabled collector or predictor makes the command exit 3.
    bool strict_plugins = false;
};

// The settings file `flags` names (else SANDBOX_SETTINGS_YAML's, else `defaults`, which a
// file may extend), the SANDBOX_* variables over it, then the flags: a log level given wins
// over --quiet's "warn". Throws InputError naming the file, variable or value.
Settings effective_settings(const SettingsFlags &flags, const DefaultSettings &defaults,
                            const std::function<const char *(const char *)> &getenv = ::getenv);

}  // namespace sbx::config
