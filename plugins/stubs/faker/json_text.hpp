// Writing a UTF-8 string as JSON text straight into the response, escaped exactly as
// nlohmann's dump() escapes it, without building a json value per string (the hot path).
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace sbx_faker {

inline void append_json_string(std::string &out, std::string_view text) {
    out += '"';
    for (const char c : text) {
        switch (c) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\b':
                out += "\\b";
                break;
            case '\f':
                out += "\\f";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            case '\t':
                out += "\\t";
                break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) {
                    char escaped[8];
                    std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(c));
                    out += escaped;
                } else {
                    out += c;  // UTF-8 passes through, as dump() without ensure_ascii
                }
        }
    }
    out += '"';
}

}  // namespace sbx_faker
