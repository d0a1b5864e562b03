// Standard base64 (RFC 4648 alphabet, `=` padding), for `{"$bytes": "<base64>"}` input
// values that stand for raw bytes.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace sbx::util {

std::string base64_encode(std::string_view bytes);
// nullopt when `text` is not standard base64 (wrong alphabet, length or padding).
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace sbx::util
