// Which bytes are valid UTF-8, and the text that stands in for bytes that are not, where
// only text can go (a JSON string): every byte that does not belong to a valid sequence
// becomes U+FFFD, one per byte. Executors apply the same rule (plugins/executors/local/
// utf8.cpp) to tell whether a spec's plain field is still the stand-in of its raw bytes.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace sbx {

// RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF.
bool is_valid_utf8(std::string_view bytes);
// The length of the valid sequence starting at byte `at` (1 to 4), or 0 when it is invalid.
size_t valid_sequence_length(std::string_view bytes, size_t at);

// `bytes` with every byte that is not part of a valid sequence replaced by U+FFFD.
std::string utf8_stand_in(std::string_view bytes);

}  // namespace sbx
