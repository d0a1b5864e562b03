// Shrinking one input value while a test keeps failing: JSON structure (members and
// elements dropped by ddmin, a container emptied), strings (ddmin over UTF-8 code points,
// or bytes when the text is not UTF-8; JSON text inside a string is shrunk as structure
// first), numbers (toward 0, fewer digits, the sign dropped when it is not needed) and
// raw bytes written `{"$bytes": "<base64>"}` (shrunk as bytes, the form kept).
#pragma once

#include "engine/input_bytes.hpp"

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace sbx::engine {

// True when a candidate for the value, put in place of the original, still makes the run
// fail the same way. It may throw to stop the shrinking (a spent budget).
using AcceptsValue = std::function<bool(const nlohmann::json &candidate)>;

// The smallest value found for which `accepts` held, or `value` when no candidate did.
// `value` itself is assumed to fail (it is not tested again).
nlohmann::json shrink_value(const nlohmann::json &value, const AcceptsValue &accepts);

// `{"$bytes": "<base64 of bytes>"}` (engine/input_bytes.hpp reads one: bytes_of).
nlohmann::json bytes_value(const std::string &bytes);

// What the target receives of a value, in bytes: a string's bytes, the decoded bytes of
// a `$bytes` value, the compact JSON of anything else (as a template expands it).
size_t value_size(const nlohmann::json &value);

// Bytes as readable text: printable ASCII as it is, the rest as \n, \t, \xNN.
std::string escaped_bytes(const std::string &bytes);

}  // namespace sbx::engine
