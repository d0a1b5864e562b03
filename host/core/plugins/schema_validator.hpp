// JSON Schema validation of plugin configuration (valijson), reporting each violation
// with the JSON pointer of the offending value so callers can map it to a YAML line.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace sbx::plugins {

struct SchemaViolation {
    std::string pointer;  // "" for the root, "/output_bytes", "/list/0"
    std::string message;
};

// Throws PluginError when `schema` itself is not a usable JSON Schema.
std::vector<SchemaViolation> validate_against_schema(const nlohmann::json &schema,
                                                     const nlohmann::json &value,
                                                     const std::string &plugin_id);

}  // namespace sbx::plugins
