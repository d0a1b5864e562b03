// Reads `plugins:`: one free-form mapping per plugin id, kept as JSON with the position of
// every value, so that a JSON Schema error at a pointer can name file:line:column.
#include "config/section_readers.hpp"

namespace sbx::config {

void read_plugin_configs(const YamlReader &reader, const Field &field, Settings &settings) {
    const std::string example = "plugins: {local: {output_bytes: 65536}}";
    for (const auto &entry : reader.entries(field, "plugins", example)) {
        if (entry.value.IsDefined() && !entry.value.IsNull() && !entry.value.IsMap()) {
            reader.fail(reader.where(entry),
                        "the configuration of plugin '" + entry.key + "' is " +
                            YamlReader::describe(entry.value) + ", not a mapping",
                        "write it as keys and values, e.g. " + example);
        }
        PluginConfig config;
        config.key_where = reader.where(entry.key_node);
        config.where = reader.where(entry);
        if (entry.value.IsMap()) {
            config.value = reader.json(entry.value, &config.locations);
        } else {
            config.locations[""] = config.where;
        }
        settings.plugins[entry.key] = std::move(config);
    }
}

}  // namespace sbx::config
