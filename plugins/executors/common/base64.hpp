// Decoding standard base64 (RFC 4648: `+`, `/`, `=` padding), the form of the run spec's
// `raw` bytes (docs/abi.md). The host has its own; a plugin links nothing of the host's.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace sbx::executors {

// The bytes `text` encodes, or nothing when it is not canonical standard base64 (length a
// multiple of 4, padding only at the end, zero bits after the last byte).
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace sbx::executors
