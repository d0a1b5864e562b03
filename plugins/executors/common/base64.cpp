// Four characters to three bytes, strictly: the spec's raw bytes are exactly what the host
// encoded, so anything lenient would only hide a broken spec.
#include "base64.hpp"

#include <cstdint>

namespace sbx::executors {
namespace {

// A character's 6-bit value, or -1 (`=` included: padding is handled by its caller).
int sextet(char c) {
    if (c >= 'A' && c <= 'Z') {
        return c - 'A';
    }
    if (c >= 'a' && c <= 'z') {
        return c - 'a' + 26;
    }
    if (c >= '0' && c <= '9') {
        return c - '0' + 52;
    }
    return c == '+' ? 62 : c == '/' ? 63 : -1;
}

}  // namespace

std::optional<std::string> base64_decode(std::string_view text) {
    if (text.size() % 4 != 0) {
        return std::nullopt;
    }
    std::string bytes;
    bytes.reserve(text.size() / 4 * 3);
    for (std::size_t at = 0; at < text.size(); at += 4) {
        std::size_t padding = 0;
        if (at + 4 == text.size()) {
            padding = text[at + 3] != '=' ? 0 : text[at + 2] == '=' ? 2 : 1;
        }
        std::uint32_t group = 0;
        for (std::size_t i = 0; i < 4; ++i) {
            const int value = i < 4 - padding ? sextet(text[at + i]) : 0;
            if (value < 0) {
                return std::nullopt;
            }
            group = group << 6 | static_cast<std::uint32_t>(value);
        }
        const std::uint32_t unused_bits = padding == 0 ? 0 : padding == 1 ? 0xFF : 0xFFFF;
        if ((group & unused_bits) != 0) {
            return std::nullopt;
        }
        const char decoded[3] = {static_cast<char>(group >> 16),
                                 static_cast<char>((group >> 8) & 0xFF),
                                 static_cast<char>(group & 0xFF)};
        bytes.append(decoded, 3 - padding);
    }
    return bytes;
}

}  // namespace sbx::executors
