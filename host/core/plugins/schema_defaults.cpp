#include "plugins/schema_defaults.hpp"

#include <cmath>
#include <cstdint>
#include <string>

namespace sbx::plugins {
namespace {

using nlohmann::json;

bool allows_type(const json &schema, const char *type) {
    const auto found = schema.find("type");
    if (found == schema.end()) {
        return false;
    }
    if (found->is_string()) {
        return *found == type;
    }
    if (found->is_array()) {
        for (const auto &item : *found) {
            if (item == type) {
                return true;
            }
        }
    }
    return false;
}

// 10.0 -> 10 where an integer is asked for; a fraction or a float out of int64's range
// stays as written, for the validator to refuse by name.
void integral_float_to_integer(const json &schema, json &value) {
    if (!value.is_number_float() || !allows_type(schema, "integer") ||
        allows_type(schema, "number")) {
        return;
    }
    const double number = value.get<double>();
    constexpr double kLimit = 9.2e18;  // inside int64's range, with room for rounding
    if (std::trunc(number) == number && std::fabs(number) < kLimit) {
        value = static_cast<std::int64_t>(number);
    }
}

std::string unescape_pointer_token(const std::string &token) {
    std::string text;
    for (std::size_t i = 0; i < token.size(); ++i) {
        if (token[i] == '~' && i + 1 < token.size() &&
            (token[i + 1] == '0' || token[i + 1] == '1')) {
            text += token[i + 1] == '0' ? '~' : '/';
            ++i;
        } else {
            text += token[i];
        }
    }
    return text;
}

}  // namespace

json with_schema_defaults(const json &schema, json config) {
    if (!schema.is_object()) {
        return config;
    }
    integral_float_to_integer(schema, config);
    if (config.is_object()) {
        if (const auto properties = schema.find("properties");
            properties != schema.end() && properties->is_object()) {
            for (const auto &[name, property] : properties->items()) {
                const auto present = config.find(name);
                if (present != config.end()) {
                    *present = with_schema_defaults(property, std::move(*present));
                } else if (property.is_object() && property.contains("default")) {
                    config[name] = with_schema_defaults(property, property["default"]);
                }
            }
        }
    }
    if (config.is_array()) {
        if (const auto items = schema.find("items"); items != schema.end() && items->is_object()) {
            for (auto &item : config) {
                item = with_schema_defaults(*items, std::move(item));
            }
        }
    }
    return config;
}

json subschema_at(const json &schema, const std::string &pointer) {
    json current = schema;
    std::size_t start = 1;
    while (start <= pointer.size() && !pointer.empty()) {
        std::size_t end = pointer.find('/', start);
        if (end == std::string::npos) {
            end = pointer.size();
        }
        const std::string token = unescape_pointer_token(pointer.substr(start, end - start));
        if (!current.is_object()) {
            return nullptr;
        }
        const auto properties = current.find("properties");
        const auto items = current.find("items");
        if (properties != current.end() && properties->is_object() && properties->contains(token)) {
            current = (*properties)[token];
        } else if (items != current.end() && items->is_object()) {
            current = *items;
        } else if (const auto extra = current.find("additionalProperties");
                   extra != current.end() && extra->is_object()) {
            current = *extra;
        } else {
            return nullptr;
        }
        start = end + 1;
    }
    return current;
}

}  // namespace sbx::plugins
