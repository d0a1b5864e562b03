// The "normal" value of an input slot that declares neither example nor default: valid
// and unremarkable, so whatever else a strategy changes is the only thing wrong.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace sbx_stubs {

inline nlohmann::json plain_value(const nlohmann::json &slot, const std::string &type) {
    using nlohmann::json;
    if (type == "int" || type == "float") {
        return slot.contains("min") ? slot["min"] : (type == "int" ? json(0) : json(0.0));
    }
    if (type == "bool") {
        return false;
    }
    if (type == "json") {
        return json::object();
    }
    if (type == "path") {
        return "input.txt";
    }
    if (type == "email") {
        return "user@example.com";
    }
    if (type == "url") {
        return "https://example.com/";
    }
    if (type == "name") {
        return "Alex Example";
    }
    if (type == "date") {
        return "2024-01-01";
    }
    if (type == "enum" && slot.contains("values") && slot["values"].is_array() &&
        !slot["values"].empty()) {
        return slot["values"][0];
    }
    return "";
}

}  // namespace sbx_stubs
