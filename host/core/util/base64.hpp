// Standard base64 (RFC 4648, section 4: `+` and `/`, `=` padding), the form raw bytes take
// in JSON: in an input set (`{"$bytes": "..."}`) and in the run spec's `raw` field.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace sbx {

std::string base64_encode(std::string_view bytes);

// The bytes `text` encodes, or nothing when it is not canonical standard base64: a length
// that is not a multiple of 4, a character outside the alphabet, padding anywhere but at
// the end, or nonzero bits after the last byte (which a second text would also decode to,
// so a decode-encode round trip could not give the text back).
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace sbx
