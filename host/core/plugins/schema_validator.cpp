// valijson behind a small interface: parse the schema, validate, flatten the errors.
#include "plugins/schema_validator.hpp"

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include "plugins/plugin.hpp"

namespace sbx::plugins {
namespace {

// valijson's context is ["<root>", "[key]", "[0]", ...]; a JSON pointer reads better.
std::string to_pointer(const std::vector<std::string> &context) {
    std::string pointer;
    for (const auto &part : context) {
        if (part.size() >= 2 && part.front() == '[' && part.back() == ']') {
            pointer += "/" + part.substr(1, part.size() - 2);
        }
    }
    return pointer;
}

}  // namespace

std::vector<SchemaViolation> validate_against_schema(const nlohmann::json &schema,
                                                     const nlohmann::json &value,
                                                     const std::string &plugin_id) {
    valijson::Schema parsed;
    try {
        valijson::SchemaParser parser;
        const valijson::adapters::NlohmannJsonAdapter schema_adapter(schema);
        parser.populateSchema(schema_adapter, parsed);
    } catch (const std::exception &e) {
        throw PluginError(
            "plugin '" + plugin_id +
            "' declares a configuration schema that is not valid JSON Schema: " + e.what());
    }
    valijson::Validator validator;
    valijson::ValidationResults results;
    const valijson::adapters::NlohmannJsonAdapter target(value);
    std::vector<SchemaViolation> violations;
    if (!validator.validate(parsed, target, &results)) {
        valijson::ValidationResults::Error error;
        while (results.popError(error)) {
            violations.push_back({to_pointer(error.context), error.description});
        }
    }
    // valijson reports the outer "object failed" after the specific cause; keep the most
    // specific (deepest) first so the first line a user reads is the useful one.
    std::stable_sort(violations.begin(), violations.end(),
                     [](const SchemaViolation &a, const SchemaViolation &b) {
                         return a.pointer.size() > b.pointer.size();
                     });
    return violations;
}

}  // namespace sbx::plugins
