// What `plugins list` and `plugins inspect` show of the loaded plugins: each plugin's
// description as JSON, the list as JSON or as a table, and the message when there is none.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "plugins/plugin.hpp"
#include "plugins/registry.hpp"

namespace sbx::plugins {

// How a command uses the plugin of an id: "listed", "default", "left out" or "-"
// (engine/plugin_use decides it from the settings).
using PluginUseOf = std::function<std::string(const std::string &id)>;

// Everything the descriptor says, with the ABI as "M.m", the file and its isolation
// ("process" or "in_process"), and its configuration schema.
nlohmann::json plugin_description_json(const Plugin &plugin);

// {"plugins": [its description less the schema, plus "use"], "refused": [{path, reason}]}.
nlohmann::json plugin_list_json(const Registry &registry, const PluginUseOf &use_of);
// An ID KIND VERSION ABI USE PATH table, then a "refused: PATH: REASON" line per refusal.
std::string plugin_list_table(const Registry &registry, const PluginUseOf &use_of);

// Nothing found must not be a silent empty table, which makes a partial install or a
// mistyped plugin directory look like a working host: the error naming where it looked.
std::string no_plugins_found_message(const Registry &registry);

}  // namespace sbx::plugins
