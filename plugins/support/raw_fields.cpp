// Applying `raw` after the plain fields are read and checked, so an executor that reads the
// spec the local way gets the exact bytes wherever it puts them. The bytes need no checks
// of their own: their stand-in keeps every ASCII byte where it is, so what the plain field
// was checked for (a NUL in a C string, `/` and `..` in a path) holds for them too.
#include "raw_fields.hpp"

#include <sbx/bytes_value.hpp>
#include <sbx/utf8.hpp>

#include "json_fields.hpp"
#include "number_parse.hpp"

namespace sbx::support {
namespace {

// The bytes of raw entry `value` at `where`, or nothing when the plain `text` is no longer
// their stand-in.
std::optional<std::string> bytes_for(const nlohmann::json &value, const std::string &where,
                                     const std::string &text) {
    auto bytes = sbx::base64_decode(read_string(value, where));
    if (!bytes) {
        invalid(where, "is not standard base64 (RFC 4648, with padding)");
    }
    if (utf8_stand_in(*bytes) != text) {
        return std::nullopt;
    }
    return bytes;
}

const nlohmann::json &entries(const nlohmann::json &raw, const char *field) {
    static const nlohmann::json kNone = nlohmann::json::object();
    const auto found = raw.find(field);
    if (found == raw.end() || found->is_null()) {
        return kNone;
    }
    if (!found->is_object()) {
        invalid(std::string("run spec: raw.") + field, "must be an object of base64 strings");
    }
    return *found;
}

void apply_argv(const nlohmann::json &raw, CommandSpec &command) {
    for (const auto &[key, value] : entries(raw, "argv").items()) {
        const std::string where = "run spec: raw.argv." + key;
        const auto index = parse_uint64(key);
        if (!index || *index >= command.argv.size()) {
            invalid(where, "names no item of argv (write its index, e.g. \"1\")");
        }
        if (const auto bytes = bytes_for(value, where, command.argv[*index])) {
            command.argv[*index] = *bytes;
        }
    }
}

// Entries keyed by name, applied to the pairs of that name (env values, file contents).
void apply_values(const nlohmann::json &raw, const char *field,
                  std::vector<std::pair<std::string, std::string>> &pairs) {
    for (const auto &[key, value] : entries(raw, field).items()) {
        const std::string where = std::string("run spec: raw.") + field + "." + key;
        for (auto &[name, text] : pairs) {
            if (name != key) {
                continue;
            }
            if (const auto bytes = bytes_for(value, where, text)) {
                text = *bytes;
            }
        }
    }
}

void apply_file_names(const nlohmann::json &raw, CommandSpec &command) {
    for (const auto &[key, value] : entries(raw, "file_names").items()) {
        const std::string where = "run spec: raw.file_names." + key;
        for (auto &file : command.files) {
            if (file.first != key) {
                continue;
            }
            if (const auto bytes = bytes_for(value, where, file.first)) {
                file.first = *bytes;
            }
        }
    }
}

}  // namespace

void apply_raw_fields(const nlohmann::json &spec, CommandSpec &command) {
    const auto raw = spec.find("raw");
    if (raw == spec.end() || raw->is_null()) {
        return;
    }
    if (!raw->is_object()) {
        invalid("run spec: raw", "must be an object (see docs/abi.md)");
    }
    apply_argv(*raw, command);
    apply_values(*raw, "env", command.env);
    if (const auto stdin_raw = raw->find("stdin");
        stdin_raw != raw->end() && !stdin_raw->is_null()) {
        if (const auto bytes = bytes_for(*stdin_raw, "run spec: raw.stdin", command.stdin_text)) {
            command.stdin_text = *bytes;
        }
    }
    apply_values(*raw, "files", command.files);  // by the plain path, before renaming
    apply_file_names(*raw, command);
}

}  // namespace sbx::support
