// Parsing JSON the user hands in (preset files, SANDBOX_* variables, roi_history.json)
// into a value or an InputError "origin:line:column: ...".
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

namespace sbx {

// How deep user JSON may nest lists and objects. Rationale: nlohmann::json copies values
// recursively, so a file of 100000 '[' parses but then overflows the stack.
constexpr size_t kMaxJsonNesting = 64;

// "line:column" (1-based) of a byte offset in `text`.
std::string line_column(const std::string &text, size_t offset);

// Parses `text`; `origin` names it in errors and `expected` says what to write, e.g.
// "write an object or a list of objects". Throws InputError for malformed JSON (with the
// line and column, also for numbers too large for a double) and for nesting deeper than
// kMaxJsonNesting.
nlohmann::json parse_json_input(const std::string &text, const std::string &origin,
                                const std::string &what, const std::string &expected);

// Compact JSON of `value` for a message. A string that is not valid UTF-8 (yaml-cpp 0.7 can
// hand over such bytes even from ASCII text; tests/fuzz/fuzz_settings found it) shows
// U+FFFD where dump() would throw.
std::string json_text(const nlohmann::json &value);

}  // namespace sbx
