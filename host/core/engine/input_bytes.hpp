// Raw bytes in an input set. JSON text cannot hold invalid UTF-8, so a value that is an
// object with exactly one key "$bytes", whose value is canonical standard base64, stands
// for those bytes (a hostile strategy's invalid UTF-8 and NULs, or `input_stubs:`). Any
// other object, "$bytes" beside other keys or with text that is not base64, is an
// ordinary JSON object.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace sbx::engine {

// The bytes `value` stands for when it is a `$bytes` object; nothing otherwise.
std::optional<std::string> bytes_of(const nlohmann::json &value);

// `value` as a template writes it: a string as it is, a `$bytes` object as its raw bytes,
// anything else as compact JSON, where a `$bytes` object nested inside becomes a JSON
// string literal holding the raw bytes (`"`, `\` and control characters escaped as JSON
// escapes them, every other byte as it is: a document with invalid UTF-8 in a string, as
// a buggy client would send it).
std::string expansion_text(const nlohmann::json &value);

}  // namespace sbx::engine
