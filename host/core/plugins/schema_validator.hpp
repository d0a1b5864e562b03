// JSON Schema validation of plugin configuration (valijson), reporting each violation
// with the JSON pointer of the offending value so callers can map it to a YAML line.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace valijson {
class Schema;
}

namespace sbx::plugins {

struct SchemaViolation {
    std::string pointer;  // "" for the root, "/output_bytes", "/list/0"
    std::string message;
};

// A JSON Schema parsed once, to validate many values (a plugin's answers on every call).
// Validation only reads it, so threads may share one.
class CompiledSchema {
  public:
    // Throws PluginError "<owner> is not valid JSON Schema: ..." when it is not usable.
    CompiledSchema(nlohmann::json schema, const std::string &owner);
    ~CompiledSchema();
    CompiledSchema(const CompiledSchema &) = delete;
    CompiledSchema &operator=(const CompiledSchema &) = delete;

    // Each violation with what was expected and what was given, the most specific first.
    [[nodiscard]] std::vector<SchemaViolation> validate(const nlohmann::json &value) const;

  private:
    nlohmann::json source_;
    std::unique_ptr<valijson::Schema> parsed_;
};

// Throws PluginError when `schema` itself is not a usable JSON Schema.
std::vector<SchemaViolation> validate_against_schema(const nlohmann::json &schema,
                                                     const nlohmann::json &value,
                                                     const std::string &plugin_id);

}  // namespace sbx::plugins
