// Making captured output safe to put in a JSON string: invalid UTF-8 becomes U+FFFD, and the
// result never exceeds a byte budget (so a replaced byte cannot grow stdout past its cap).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace sbx::local {

// Valid UTF-8 (RFC 3629: no overlongs, no surrogates, nothing above U+10FFFF) copied, every
// invalid byte replaced by U+FFFD, stopping before the first character that would make the
// result longer than `max_bytes`.
std::string sanitize_utf8(std::string_view bytes, std::size_t max_bytes);

}  // namespace sbx::local
