// The `$bytes` convention of input values, and the compact JSON text of a value that holds
// such objects. Everything without them is written by nlohmann, as before.
#include "engine/input_bytes.hpp"

#include <cstdio>

#include <sbx/bytes_value.hpp>

namespace sbx::engine {

using nlohmann::json;

namespace {

constexpr const char *kBytesKey = "$bytes";

std::string compact(const json &value) {
    return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

bool holds_bytes(const json &value) {
    if (bytes_of(value)) {
        return true;
    }
    if (value.is_structured()) {
        for (const auto &element : value) {
            if (holds_bytes(element)) {
                return true;
            }
        }
    }
    return false;
}

// A JSON string literal of `bytes` as they are: only what JSON requires is escaped, the
// same escapes nlohmann writes.
std::string string_literal(const std::string &bytes) {
    std::string text = "\"";
    for (const char c : bytes) {
        const auto byte = static_cast<unsigned char>(c);
        switch (c) {
            case '"':
                text += "\\\"";
                break;
            case '\\':
                text += "\\\\";
                break;
            case '\b':
                text += "\\b";
                break;
            case '\f':
                text += "\\f";
                break;
            case '\n':
                text += "\\n";
                break;
            case '\r':
                text += "\\r";
                break;
            case '\t':
                text += "\\t";
                break;
            default:
                if (byte < 0x20) {
                    char escape[8];
                    std::snprintf(escape, sizeof escape, "\\u%04x", byte);
                    text += escape;
                } else {
                    text += c;
                }
        }
    }
    return text + "\"";
}

// Compact JSON, as nlohmann writes it (object keys in order, no spaces), with each `$bytes`
// object written as a string literal of its bytes.
void write_compact(const json &value, std::string &out) {
    if (const auto bytes = bytes_of(value)) {
        out += string_literal(*bytes);
    } else if (value.is_object()) {
        out += '{';
        bool first = true;
        for (const auto &[key, element] : value.items()) {
            out += first ? "" : ",";
            first = false;
            out += compact(json(key));
            out += ':';
            write_compact(element, out);
        }
        out += '}';
    } else if (value.is_array()) {
        out += '[';
        for (size_t i = 0; i < value.size(); ++i) {
            out += i == 0 ? "" : ",";
            write_compact(value[i], out);
        }
        out += ']';
    } else {
        out += compact(value);
    }
}

}  // namespace

std::optional<std::string> bytes_of(const json &value) {
    if (!value.is_object() || value.size() != 1) {
        return std::nullopt;
    }
    const auto found = value.find(kBytesKey);
    if (found == value.end() || !found->is_string()) {
        return std::nullopt;
    }
    return base64_decode(found->get_ref<const std::string &>());
}

std::string expansion_text(const json &value) {
    if (value.is_string()) {
        return value.get<std::string>();
    }
    if (const auto bytes = bytes_of(value)) {
        return *bytes;
    }
    if (!holds_bytes(value)) {
        return compact(value);
    }
    std::string text;
    write_compact(value, text);
    return text;
}

}  // namespace sbx::engine
