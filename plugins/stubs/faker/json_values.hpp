// JSON values of the faker stub: an object that follows the slot's JSON Schema when it
// carries one (`schema`), else the shape of its example or default, else a small record.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "locale.hpp"

namespace sbx_faker {

// A value following the JSON Schema `schema` (the subset in the README: type, properties,
// items, enum, const, minimum/maximum, minItems/maxItems, minLength/maxLength, format).
// Field and item values draw from their own streams under `stream`, and strings follow the
// hint of their field's name. SBX_INVALID naming `where` for bounds that cannot be met.
nlohmann::json from_schema(const nlohmann::json &schema, const Locale &locale, uint64_t stream,
                           const std::string &where);

// A value of the same shape as `example`: same keys, same array lengths, same JSON types,
// with realistic values chosen by each field's name (and, for strings, by what the example
// looks like: an email, a URL, a date).
nlohmann::json like_example(const nlohmann::json &example, const Locale &locale, uint64_t stream);

// The record a json slot without schema, example or default gets.
const nlohmann::json &default_record();

}  // namespace sbx_faker
