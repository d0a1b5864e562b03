// valijson behind a small interface: parse the schema, validate, flatten the errors.
#include "plugins/schema_validator.hpp"

#include <algorithm>

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include "config/suggest.hpp"
#include "plugins/plugin.hpp"
#include "plugins/schema_defaults.hpp"

namespace sbx::plugins {
namespace {

using nlohmann::json;

// The JSON Schema type name of `value`: "integer" for whole numbers, "number" otherwise.
std::string schema_type_of(const json &value) {
    if (value.is_number_integer()) {
        return "integer";
    }
    if (value.is_number()) {
        return "number";
    }
    return value.type_name();
}

std::string shown(const json &value) {
    constexpr std::size_t kLongest = 60;
    std::string text = value.dump(-1, ' ', false, json::error_handler_t::replace);
    if (text.size() > kLongest) {
        text = text.substr(0, kLongest) + "...";
    }
    return text;
}

bool type_allowed(const json &type, const std::string &given) {
    const auto one = [&](const json &name) {
        return name == given || (name == "number" && given == "integer");
    };
    if (type.is_array()) {
        return std::any_of(type.begin(), type.end(), one);
    }
    return one(type);
}

// The keys of `given` that a closed object schema `rule` does not list.
std::vector<std::string> unknown_keys(const json &rule, const json &given) {
    std::vector<std::string> unknown;
    const auto properties = rule.find("properties");
    const auto additional = rule.find("additionalProperties");
    if (!given.is_object() || properties == rule.end() || !properties->is_object() ||
        additional == rule.end() || *additional != false) {
        return unknown;
    }
    for (const auto &[key, item] : given.items()) {
        if (!properties->contains(key)) {
            unknown.push_back(key);
        }
    }
    return unknown;
}

// valijson's sentences name the rule, not the value ("Value type not permitted by 'type'
// constraint."): say what was expected and what was given instead. A key the schema does
// not know moves the violation to the key, so that its line is the one shown.
std::string explain(SchemaViolation &violation, const json &schema, const json &value) {
    const json *given = nullptr;
    try {
        given = &value.at(json::json_pointer(violation.pointer));
    } catch (const json::exception &) {
        return violation.message;
    }
    const json rule = subschema_at(schema, violation.pointer);
    if (const auto unknown = unknown_keys(rule, *given); !unknown.empty()) {
        std::vector<std::string> keys;
        for (const auto &[key, item] : rule["properties"].items()) {
            keys.push_back(key);
        }
        violation.pointer += "/" + unknown.front();
        return "not a key of this configuration; " + config::did_you_mean(unknown.front(), keys) +
               "the keys are: " + config::join(keys);
    }
    // The types a rule allows, its alternatives' (oneOf, anyOf) included.
    std::vector<std::string> allowed;
    const auto add_types = [&allowed](const json &type) {
        for (const auto &name : type.is_array() ? type : json::array({type})) {
            const std::string text = name.is_string() ? name.get<std::string>() : name.dump();
            if (std::find(allowed.begin(), allowed.end(), text) == allowed.end()) {
                allowed.push_back(text);
            }
        }
    };
    if (rule.is_object() && rule.contains("type")) {
        add_types(rule["type"]);
    }
    for (const char *alternatives : {"oneOf", "anyOf"}) {
        if (rule.is_object() && rule.contains(alternatives) && rule[alternatives].is_array()) {
            for (const auto &alternative : rule[alternatives]) {
                if (alternative.is_object() && alternative.contains("type")) {
                    add_types(alternative["type"]);
                }
            }
        }
    }
    if (!allowed.empty() && !type_allowed(json(allowed), schema_type_of(*given))) {
        std::string expected;
        for (const auto &name : allowed) {
            expected += (expected.empty() ? "" : " or ") + name;
        }
        return "expected " + expected + ", got " + schema_type_of(*given) + " " + shown(*given);
    }
    if (rule.is_object() && rule.contains("enum")) {
        return "expected one of " + shown(rule["enum"]) + ", got " + shown(*given);
    }
    return violation.message + " (got " + shown(*given) + ")";
}

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

CompiledSchema::CompiledSchema(nlohmann::json schema, const std::string &owner)
    : source_(std::move(schema)), parsed_(std::make_unique<valijson::Schema>()) {
    try {
        valijson::SchemaParser parser;
        const valijson::adapters::NlohmannJsonAdapter schema_adapter(source_);
        parser.populateSchema(schema_adapter, *parsed_);
    } catch (const std::exception &e) {
        throw PluginError(owner + " is not valid JSON Schema: " + e.what());
    }
}

CompiledSchema::~CompiledSchema() = default;

std::vector<SchemaViolation> CompiledSchema::validate(const nlohmann::json &value) const {
    valijson::Validator validator;
    valijson::ValidationResults results;
    const valijson::adapters::NlohmannJsonAdapter target(value);
    std::vector<SchemaViolation> violations;
    if (!validator.validate(*parsed_, target, &results)) {
        valijson::ValidationResults::Error error;
        while (results.popError(error)) {
            violations.push_back({to_pointer(error.context), error.description});
        }
    }
    for (auto &violation : violations) {
        violation.message = explain(violation, source_, value);
    }
    // valijson reports the outer "object failed" after the specific cause; keep the most
    // specific (deepest) first so the first line a user reads is the useful one.
    std::stable_sort(violations.begin(), violations.end(),
                     [](const SchemaViolation &a, const SchemaViolation &b) {
                         return a.pointer.size() > b.pointer.size();
                     });
    return violations;
}

std::vector<SchemaViolation> validate_against_schema(const nlohmann::json &schema,
                                                     const nlohmann::json &value,
                                                     const std::string &plugin_id) {
    return CompiledSchema(schema, "plugin '" + plugin_id + "' declares a configuration schema that")
        .validate(value);
}

}  // namespace sbx::plugins
