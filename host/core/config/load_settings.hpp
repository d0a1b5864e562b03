// Loading sandbox_settings.yaml into the Settings model and applying SANDBOX_* overrides.
// Every failure is an sbx::InputError "file:line:column: what is wrong; what to write".
#pragma once

#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>

#include "config/settings.hpp"

namespace sbx::config {

// The settings a host uses when it is given none (the embedded file, or the one installed
// beside it): what `extends: default` starts from.
struct DefaultSettings {
    std::string yaml;
    std::string source;  // e.g. "config/sandbox_settings.yaml (embedded)"
};

// Reads and checks a settings file. Errors name the path as given.
Settings load_settings_file(const std::filesystem::path &path,
                            const DefaultSettings *defaults = nullptr);

// Checks settings text; `source_name` is used in error messages and as Settings::source
// (e.g. "config/sandbox_settings.yaml (embedded)"). An empty text gives the defaults.
// `extends: default` starts from `defaults` (an error when there are none), and every key
// the text gives replaces the default's. A list of plugin ids, plugin_dirs or targets whose
// items all start with '+' adds them to the list it would otherwise replace (the default's
// with `extends: default`, else the built-in one): metrics: [+my_collector].
Settings load_settings_text(const std::string &yaml, const std::string &source_name,
                            const DefaultSettings *defaults = nullptr);

// SANDBOX_SETTINGS_YAML: the settings file to load when --config names none; "" for none.
std::string settings_file_from_environment(
    const std::function<const char *(const char *)> &getenv = ::getenv);

// Applies the SANDBOX_* environment variables over the loaded settings:
//   SANDBOX_DATA_DIR, SANDBOX_EXECUTOR, SANDBOX_STUB_STRATEGY   replace the value
//   SANDBOX_PLUGIN_DIRS (colon-separated), SANDBOX_METRICS_PLUGIN_DIR,
//   SANDBOX_STUB_PLUGINS (colon-separated)   are put before plugin_dirs, in that order
//   SANDBOX_INPUT_STUBS (a JSON list of input sets)   replaces input_stubs
//   SANDBOX_WORKERS (a number or auto), SANDBOX_LOG_LEVEL,
//   SANDBOX_JSON_LOGS, SANDBOX_KEEP_WORKSPACES, SANDBOX_STUB_CACHE (1, 0, true, false)
// A variable set to "" counts as unset. The location of an overridden value becomes
// "environment variable SANDBOX_...". A bad value throws InputError naming the variable.
void apply_environment(Settings &settings,
                       const std::function<const char *(const char *)> &getenv = ::getenv);

}  // namespace sbx::config
