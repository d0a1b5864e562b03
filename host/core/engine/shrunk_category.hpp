// Which part of a polyglot payload a failure's shrunk input came from. A polyglot carries
// many triggers at once (`%s%n`, `../`, `' OR '1'='1`, ...); once shrinking has cut it
// down to what the target needed, the part that holds the rest names the real cause.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace sbx::engine {

// `meta_entry`: a slot's entry in runs.input_meta, `{"category": "polyglot",
// "payload_index": N, "parts": {"format_string": "%s%n%x", ...}}` (a part is a string or a
// `{"$bytes": "<base64>"}` value). Returns the name of the part whose text contains the
// shrunk value — a string, or for any other JSON value (also JSON text inside a string)
// one of its string leaves or member names — preferring the shortest such part; "" when
// no part does or the entry has no parts. Empty strings match nothing.
std::string shrunk_category(const nlohmann::json &meta_entry, const nlohmann::json &shrunk_value);

}  // namespace sbx::engine
